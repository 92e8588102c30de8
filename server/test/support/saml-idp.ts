// A SAML identity provider for tests: a key pair and certificate made in the test, and responses built and
// signed (or not) the way an IdP would answer an AuthnRequest.
import { randomBytes } from 'node:crypto';
import { inflateRawSync } from 'node:zlib';
import { generate } from 'selfsigned';
import { SignedXml } from 'xml-crypto';

export interface TestIdp {
  issuer: string;
  entryPoint: string;
  certificate: string;
  privateKey: string;
}

export async function createTestIdp(name = 'test-idp'): Promise<TestIdp> {
  const pems = await generate([{ name: 'commonName', value: name }], { keySize: 2048, algorithm: 'sha256' });
  return {
    issuer: `https://${name}.example/entity`,
    entryPoint: `https://${name}.example/sso`,
    certificate: pems.cert,
    privateKey: pems.private,
  };
}

/** The AuthnRequest carried by an HTTP-Redirect binding URL. */
export function readAuthnRequest(authorizationUrl: string) {
  const url = new URL(authorizationUrl);
  const xml = inflateRawSync(Buffer.from(url.searchParams.get('SAMLRequest') ?? '', 'base64')).toString('utf8');
  const attr = (name: string) => new RegExp(`\\s${name}="([^"]*)"`).exec(xml)?.[1] ?? '';
  return {
    xml,
    id: attr('ID'),
    acsUrl: attr('AssertionConsumerServiceURL'),
    relayState: url.searchParams.get('RelayState'),
  };
}

export interface ResponseOptions {
  inResponseTo: string;
  email: string;
  audience: string;
  acsUrl: string;
  sign?: boolean;
  /** Sign with another IdP's key (not the one the tenant trusts). */
  signWith?: TestIdp;
  /** Sign the response around the assertion instead of the assertion itself. */
  signResponseOnly?: boolean;
  /** The assertion's ID (a fresh one when not given). */
  assertionId?: string;
  validForMs?: number;
}

const iso = (ms: number) => new Date(Date.now() + ms).toISOString();
const id = () => `_${randomBytes(16).toString('hex')}`;

export function samlResponse(idp: TestIdp, o: ResponseOptions): string {
  const valid = o.validForMs ?? 5 * 60_000;
  const assertionId = o.assertionId ?? id();
  const xml =
    `<samlp:Response xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol" xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion" ID="${id()}" Version="2.0" IssueInstant="${iso(0)}" Destination="${o.acsUrl}" InResponseTo="${o.inResponseTo}">` +
    `<saml:Issuer>${idp.issuer}</saml:Issuer>` +
    `<samlp:Status><samlp:StatusCode Value="urn:oasis:names:tc:SAML:2.0:status:Success"/></samlp:Status>` +
    `<saml:Assertion ID="${assertionId}" Version="2.0" IssueInstant="${iso(0)}">` +
    `<saml:Issuer>${idp.issuer}</saml:Issuer>` +
    `<saml:Subject><saml:NameID Format="urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress">${o.email}</saml:NameID>` +
    `<saml:SubjectConfirmation Method="urn:oasis:names:tc:SAML:2.0:cm:bearer"><saml:SubjectConfirmationData InResponseTo="${o.inResponseTo}" NotOnOrAfter="${iso(valid)}" Recipient="${o.acsUrl}"/></saml:SubjectConfirmation></saml:Subject>` +
    `<saml:Conditions NotBefore="${iso(-60_000)}" NotOnOrAfter="${iso(valid)}"><saml:AudienceRestriction><saml:Audience>${o.audience}</saml:Audience></saml:AudienceRestriction></saml:Conditions>` +
    `<saml:AuthnStatement AuthnInstant="${iso(0)}" SessionIndex="${id()}"><saml:AuthnContext><saml:AuthnContextClassRef>urn:oasis:names:tc:SAML:2.0:ac:classes:PasswordProtectedTransport</saml:AuthnContextClassRef></saml:AuthnContext></saml:AuthnStatement>` +
    `<saml:AttributeStatement><saml:Attribute Name="http://schemas.xmlsoap.org/ws/2005/05/identity/claims/emailaddress"><saml:AttributeValue>${o.email}</saml:AttributeValue></saml:Attribute></saml:AttributeStatement>` +
    `</saml:Assertion></samlp:Response>`;
  if (o.sign === false) return Buffer.from(xml).toString('base64');
  return signedXml(xml, o.signWith ?? idp, o.signResponseOnly ? 'Response' : 'Assertion');
}

/** `xml` with an enveloped signature of `signer` over its element `signed`, base64 as posted to the ACS. */
export function signedXml(xml: string, signer: TestIdp, signed: 'Response' | 'Assertion'): string {
  const sig = new SignedXml({
    privateKey: signer.privateKey,
    publicCert: signer.certificate,
    signatureAlgorithm: 'http://www.w3.org/2001/04/xmldsig-more#rsa-sha256',
    canonicalizationAlgorithm: 'http://www.w3.org/2001/10/xml-exc-c14n#',
  });
  sig.addReference({
    xpath: `//*[local-name(.)='${signed}']`,
    transforms: ['http://www.w3.org/2000/09/xmldsig#enveloped-signature', 'http://www.w3.org/2001/10/xml-exc-c14n#'],
    digestAlgorithm: 'http://www.w3.org/2001/04/xmlenc#sha256',
  });
  sig.computeSignature(xml, {
    location: {
      reference: `/descendant-or-self::*[local-name(.)='${signed}'][1]/*[local-name(.)='Issuer']`,
      action: 'after',
    },
  });
  return Buffer.from(sig.getSignedXml()).toString('base64');
}
