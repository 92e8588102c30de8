// Generated from openapi/ by `npm run generate`. Do not edit by hand.
export interface paths {
    "/sessions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List the caller's sessions
         * @description Lists the signed-in user's live sessions in this region (not ended, not expired, every factor proven): when each
         *     started and was last used, how it signed in, a coarse device (from the user agent of its sign-in) and network
         *     (IPv4 /24, IPv6 /48 of the address it signed in from; never the full address), the caller's own marked
         *     `current`. The most recently used first. Another region's sessions are that region's. Not tenant-scoped (no
         *     `cosafe-tenant-id`).
         */
        get: operations["listSessions"];
        put?: never;
        /**
         * Create a session
         * @description Signs in with one of four grants, chosen by `grantType`:
         *     `password` (email and password; if the user has a second factor, it starts unverified and the session may
         *     call only its own session and challenge operations until it is verified), `coAlertCode` (a coAlert code; the
         *     session's `coalert` factor is verified), `sso` (single sign-on, see below) or `passkey` (a passkey alone, see
         *     below).
         *
         *     When a `password` session waits for its second factor (`otpEmail` or `otpSms` unverified) and the user has a
         *     passkey in this region, `factors` also holds `passkey: unverified`: a passkey may prove the second factor
         *     instead of a code (`POST /sessions/{id}/challenges` with `passkey`, then `PATCH /sessions/{id}`).
         *
         *     Unknown email, wrong password and no password set all answer `401 INVALID_CREDENTIALS`, identically.
         *     Every `password` and `coAlertCode` attempt is counted as a failure before it is checked, and given back
         *     when it succeeds, so concurrent attempts are held to the same limits as sequential ones (`429
         *     TOO_MANY_REQUESTS` with `unavailableUntil`, before any check); an attempt answered 429 counts nowhere.
         *     Failures lock out, for 30 seconds doubling up to an hour: an account from one client address after 5 (within a
         *     day); an account from addresses it has not completed a sign-in from within 90 days after 20 (within a day; the
         *     right password from an address the account completed a sign-in from is never refused for failures elsewhere);
         *     a client address after 20 within an hour (coAlert codes included; not applied at an address the account
         *     completed a sign-in from). A client address is an IPv4 address or an IPv6 address's network prefix (/64 unless
         *     the region is configured for /56 to /64): all addresses of one IPv6 network share its limits. Accounts are
         *     counted by identity hash, the same whether or not they exist. Wrong one-time codes and probes count towards the
         *     same limits.
         *
         *     Step-up: while the account's limit for unfamiliar addresses is reached, the right password from such an
         *     address is not refused: it answers `201` with a session waiting for an email code, exactly as for an account
         *     with the email factor (`factors` has `password: verified` and `otpEmail: unverified`; the session's own
         *     factors are added). The code is asked for and verified through `POST /sessions/{id}/challenges` and
         *     `PATCH /sessions/{id}`; once verified, the sign-in is complete and the address familiar. A wrong password
         *     there still answers `429`. An address becomes familiar, and an account's failures end, only when a sign-in
         *     completes (every factor verified), not when the password alone is right.
         *
         *     `sso`: the email's domain picks the organisation (`GET /probes/idpDomain/{idpDomain}`); a domain that does not
         *     sign in with single sign-on here answers `400 INVALID_SSO_CONFIGURATION`. For any address at such a domain the
         *     answer is the same, whether or not the address belongs to an account of the organisation: `201` with a session
         *     opened for that organisation, its `oidc`, `saml` or `skolon` factor (the domain's protocol) unverified and bound
         *     to no user. Like any session with an unverified factor it lives 15 minutes, cannot be refreshed, and may only
         *     start and answer its own challenge or end itself (`DELETE /sessions/{id}`). Who signs in is decided by the
         *     identity provider: verifying the factor binds the session to the member of the organisation the provider
         *     asserted, and an identity the organisation does not have is refused then (`PATCH /sessions/{id}`). The grant
         *     checks no secret, so it moves none of the lockouts above; it counts towards a limit of 60 grants a minute per
         *     client address (`429 TOO_MANY_REQUESTS`), never given back, the same for every email.
         *
         *     `passkey`: the assertion of a discoverable passkey for the options of `POST /passkeys/authentication-options`
         *     (see there how several regions' challenges are joined). The region checks that exactly one 32-byte part of
         *     `clientDataJSON.challenge` is a live challenge it issued, and uses that challenge up whatever the outcome; none
         *     answers `400 PASSKEY_CHALLENGE_EXPIRED` (ask for new options). The assertion must come from an allowed origin of
         *     the sign-in app, for this region's relying party id, with user presence and user verification, be signed by the
         *     passkey's key, and carry a signature counter that went up (when the authenticator keeps one). A counter that did
         *     not go up marks the passkey suspicious (it is refused from then on, see `GET /passkeys`). Any failure (unknown
         *     credential, a `userHandle` naming another region or not the passkey's user, a suspicious passkey, a deactivated
         *     user, a bad signature, origin, relying party, flags or counter) answers `401 INVALID_CREDENTIALS`, identically.
         *     The session's factors are `passkey: verified`. Like a coAlert code, every attempt is counted against the client
         *     address's limit before it is checked, and given back when it succeeds or when no challenge was live
         *     (`PASSKEY_CHALLENGE_EXPIRED`); a success ends the account's failures and makes the address familiar, as a
         *     completed password sign-in does.
         */
        post: operations["createSession"];
        /**
         * End every other session
         * @description "Sign out everywhere else": ends every live session of the signed-in user in this region except the caller's
         *     own (sessions still waiting for a factor included); their access and refresh tokens stop working at once. The
         *     query `others=true` is required, so a bare `DELETE /sessions` ends nothing (`400 BAD_REQUEST`). It asks for no
         *     recent proof of the credentials: ending sessions only takes access away. Answers how many sessions ended (0
         *     when there were none). When any ended, one security event of the user, by the user, records how many.
         */
        delete: operations["deleteOtherSessions"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/sessions/{id}": {
        parameters: {
            query?: never;
            header: {
                /** @description Version of the core API contract the client speaks. Must be `1`. */
                "cosafe-core-api-version": components["parameters"]["ApiVersionHeader"];
            };
            path: {
                /** @description The session id. */
                id: components["parameters"]["SessionId"];
            };
            cookie?: never;
        };
        get?: never;
        /**
         * Refresh a session
         * @description Rotates the session's tokens. There is no body: the refresh token is sent as
         *     `Authorization: Bearer <refreshToken>`. The answer holds a new access token and a new refresh token.
         *     A session has one chain of refresh tokens, with one live token at a time. For 10 seconds after a rotation
         *     (concurrent tabs, retries) the immediate predecessor of the current token is still accepted and answers the
         *     current refresh token again (no second chain starts; a new access token is issued). Any other superseded token
         *     of the session, or the predecessor after those 10 seconds, revokes the whole session (`INVALID_REFRESH_TOKEN`).
         *     A session waiting for its second factor cannot be refreshed (`INVALID_SESSION`) and ends 15 minutes after it
         *     started; a complete session lives 365 days from its last refresh.
         */
        put: operations["refreshSession"];
        post?: never;
        /**
         * Log out
         * @description Revokes one of the caller's own sessions in this region: the one asking (log out) or any other of the user's
         *     live sessions (`GET /sessions`, "end" on a lost phone); its access and refresh tokens stop working at once. A
         *     session that has already ended answers `204` again. Another user's session answers `401 INVALID_SESSION_ID`,
         *     exactly like an unknown id. A single sign-on session not yet bound to a user (see `createSession`) may end only
         *     itself. Ending another session than the caller's is recorded as a security event of the user, by the user.
         */
        delete: operations["deleteSession"];
        options?: never;
        head?: never;
        /**
         * Answer a challenge
         * @description Proves a factor of the session: a one-time code sent by `otpSms` or `otpEmail`; the assertion of one of the
         *     user's passkeys (`passkey`) for the challenge of `POST /sessions/{id}/challenges`; the authorization code and
         *     PKCE verifier of an `oidc` or `skolon` sign-in; the one-time `code` the SAML assertion consumer service gave.
         *     On success the factor is verified and the session is returned with fresh tokens: the access and refresh tokens
         *     issued before are refused from then on (`INVALID_SESSION`, and a refresh with the old refresh token revokes the
         *     session).
         *
         *     An SSO factor binds the session to the user whose email the identity provider asserted, looked up among the
         *     active members of the organisation the session was opened for. A domain's identity provider speaks for that
         *     domain's addresses only: an asserted email whose domain (after the last `@`, case-insensitive, subdomains not
         *     included) is not registered to that organisation for this kind of sign-in answers `INVALID_SSO_ID_TOKEN`
         *     (OIDC and Skolon; SAML redirects with `saml_validation_failed`), is logged, and no account is looked up. An
         *     identity at one of its domains that is no active member there answers `INVALID_CREDENTIALS` (OIDC and
         *     Skolon; SAML says so in the assertion consumer service's redirect). Either way the session stays unverified
         *     and bound to no user.
         *
         *     A wrong code answers `INVALID_CREDENTIALS`; after five wrong tries the code is used up, and it answers
         *     `MFA_TOKEN_EXPIRED` like an expired code (ask for a new one). The tenth wrong code in one session ends the
         *     session (sign in again). Every wrong one-time code counts as a failed sign-in of the account from the caller's
         *     address (see `createSession`) and towards the account's consecutive wrong codes, over all its sessions, which
         *     only a completed sign-in or a password reset ends: after 30, codes from addresses the account has not completed
         *     a sign-in from are refused until then (`429`), while an address it has can still complete a sign-in. Past
         *     those limits the answer is 429 before the code is checked; a request refused so counts nowhere.
         *
         *     `passkey` answers a session whose `factors` hold `passkey: unverified` (else `400 PASSKEY_NOT_REGISTERED`).
         *     The assertion must be for the session's latest passkey challenge (single use, valid 5 minutes, used up by the
         *     attempt whatever its outcome; none live answers `400 PASSKEY_CHALLENGE_EXPIRED`), by one of the session user's
         *     passkeys, from an allowed origin, for this region's relying party id, with user presence and user verification
         *     and a signature counter that went up (one that did not marks the passkey suspicious). Otherwise it answers
         *     `INVALID_CREDENTIALS` and counts as a wrong code does (the same limits, and towards the ten that end the
         *     session). On success the factors are `password: verified, passkey: verified`.
         */
        patch: operations["verifySessionChallenge"];
        trace?: never;
    };
    "/sessions/{id}/challenges": {
        parameters: {
            query?: never;
            header: {
                /** @description Version of the core API contract the client speaks. Must be `1`. */
                "cosafe-core-api-version": components["parameters"]["ApiVersionHeader"];
            };
            path: {
                /** @description The session id. */
                id: components["parameters"]["SessionId"];
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Create a challenge
         * @description `otpEmail` / `otpSms`: sends a 6-digit one-time code (valid about 10 minutes) by email or SMS and answers
         *     where it went (masked), until when it is valid and when another may be asked for. Asking again before
         *     `resendUnavailableUntil` answers `429` with `unavailableUntil`, as does asking for more than 10 codes in an
         *     hour; SSO challenges are limited to 30 an hour per session. SMS for a user without a phone number answers
         *     `MFA_REQUIRED_BUT_NOT_ENABLED`. The message is in the user's `preferredLanguage`, else in the language of
         *     `Accept-Language`, else English; the SMS ends with the origin-bound line `@<sign-in app host> #<code>`, so
         *     phones offer the code to the sign-in app only.
         *
         *     `oidc` / `skolon` (authorization code with PKCE, `S256` only) and `saml`: answers the `authorizationUrl` to
         *     send the browser to.
         *
         *     `passkey`: for a session whose `factors` hold `passkey: unverified` (a password session waiting for its second
         *     factor, whose user has a passkey in this region), answers WebAuthn request options: a fresh challenge of 32
         *     random bytes bound to the session (single use, valid 5 minutes; asking again replaces it),
         *     `userVerification: required` and `allowCredentials` listing the user's passkeys. A session without it, or a user
         *     with no passkey left, answers `400 PASSKEY_NOT_REGISTERED`. It sends nothing, so it does not count against the
         *     codes' 10 an hour: passkey challenges have their own bound of 60 an hour per user (`429`), and a wrong answer
         *     counts like a wrong code. Answer it with `PATCH /sessions/{id}`. No code is sent unless asked for: a client may
         *     offer the passkey first and ask for `otpEmail` only when the user wants a code.
         */
        post: operations["createSessionChallenge"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/sessions/{id}/reauthentication": {
        parameters: {
            query?: never;
            header: {
                /** @description Version of the core API contract the client speaks. Must be `1`. */
                "cosafe-core-api-version": components["parameters"]["ApiVersionHeader"];
            };
            path: {
                /** @description The session id. */
                id: components["parameters"]["SessionId"];
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Re-authenticate the session
         * @description Proves the account's credentials again on the caller's own session (`id` is the session of the access token),
         *     for changing a factor: adding, renaming or deleting a passkey (and any later change of a factor) needs a proof
         *     within the last 5 minutes, else `401 REAUTHENTICATION_REQUIRED`. A sign-in is such a proof (its password,
         *     passkey, code or single sign-on), so the sign-in app's offer to add a passkey right after a sign-in needs none;
         *     a refresh is not.
         *
         *     `password`: checked as a password sign-in is, in the same line and with the same lockouts (a wrong one counts as
         *     a failed sign-in of the account from this address; while locked, `429`). `passkey`: the assertion of one of the
         *     session user's own passkeys for a challenge of `POST /passkeys/authentication-options` (single use). Either way
         *     a failure answers `401 INVALID_CREDENTIALS`. The session keeps its tokens.
         */
        post: operations["reauthenticateSession"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/passkeys": {
        parameters: {
            query?: never;
            header: {
                /** @description Version of the core API contract the client speaks. Must be `1`. */
                "cosafe-core-api-version": components["parameters"]["ApiVersionHeader"];
            };
            path?: never;
            cookie?: never;
        };
        /**
         * List the caller's passkeys
         * @description Lists the signed-in user's passkeys in this region, newest first (ties by id). Public keys and credential ids
         *     are never shown. Not tenant-scoped (no `cosafe-tenant-id`).
         */
        get: operations["listPasskeys"];
        put?: never;
        /**
         * Add a passkey
         * @description Verifies the authenticator's answer to `POST /passkeys/registration-options` and stores the passkey (its
         *     credential id, public key, signature counter and AAGUID) for the caller's account. The answer must be for the
         *     caller's own live challenge (single use: a second answer to it is refused), from an allowed origin of the sign-in
         *     app, for this region's relying party id, with user presence and user verification, a discoverable credential and
         *     an algorithm of the options; otherwise `400 PASSKEY_REGISTRATION_FAILED` (an expired or used challenge answers
         *     `400 PASSKEY_CHALLENGE_EXPIRED`: ask for new options). A credential already registered answers
         *     `400 PASSKEY_REGISTRATION_FAILED`. The same sessions as for the options may add one (else `403 FORBIDDEN`);
         *     an account has at most 10 passkeys (`409 LIMIT_REACHED`).
         *
         *     As for the options, the session must have proven the account's credentials within the last 5 minutes, else
         *     `401 REAUTHENTICATION_REQUIRED`.
         *
         *     The user is emailed, in their language, that a passkey was added, with a link that removes it (single use,
         *     valid 7 days: `POST /passkeys/removal`); the addition is written to the audit log.
         */
        post: operations["createPasskey"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/passkeys/registration-options": {
        parameters: {
            query?: never;
            header: {
                /** @description Version of the core API contract the client speaks. Must be `1`. */
                "cosafe-core-api-version": components["parameters"]["ApiVersionHeader"];
            };
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Ask for passkey registration options
         * @description Answers WebAuthn creation options to add a passkey to the caller's own account, in this region: a fresh
         *     challenge of 32 random bytes (single use, valid 5 minutes, bound to the caller's account), a discoverable
         *     credential and user verification required, the caller's passkeys excluded, and as `user.id` the user handle
         *     `<region>:<userId>` in UTF-8. There is no body. Hand the options to the browser, then send its answer to
         *     `POST /passkeys`.
         *
         *     Only a session that signed in with the account's own credentials may add a passkey: a password (with its
         *     second factor when the account has one) or a passkey. Sessions of single sign-on or of a coAlert code answer
         *     `403 FORBIDDEN`. Asking for options while the account already has 10 passkeys answers `409 LIMIT_REACHED`.
         *     Limited to 30 an hour per user (`429 TOO_MANY_REQUESTS`). The session must have proven the account's
         *     credentials within the last 5 minutes (a sign-in or `POST /sessions/{id}/reauthentication`; a refresh is no
         *     proof), else `401 REAUTHENTICATION_REQUIRED`.
         */
        post: operations["createPasskeyRegistrationOptions"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/passkeys/authentication-options": {
        parameters: {
            query?: never;
            header: {
                /** @description Version of the core API contract the client speaks. Must be `1`. */
                "cosafe-core-api-version": components["parameters"]["ApiVersionHeader"];
            };
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Ask for passwordless sign-in options
         * @description Answers WebAuthn request options for a passwordless sign-in with a discoverable passkey: a fresh challenge of
         *     32 random bytes (single use, valid 5 minutes, stored by this region), `userVerification: required` and no
         *     `allowCredentials`. Nobody is named, so the answer has the same shape for everyone and says nothing about any
         *     account. There is no body.
         *
         *     One sign-in app serves every region, and a passkey lives in the region holding its account. The app asks every
         *     region it knows for options and joins their decoded challenges, in its own fixed region order, into one WebAuthn
         *     challenge (so 32 bytes times the number of regions) for the browser. The assertion's `userHandle`
         *     (`<region>:<userId>` in UTF-8) names the account's region; the app sends the grant (`POST /sessions` with
         *     `grantType: passkey`) there. That region accepts `clientDataJSON.challenge` when its length is a multiple of
         *     32 bytes and exactly one 32-byte part of it is a live challenge it issued; that challenge is used up by the
         *     attempt, whatever its outcome.
         *
         *     Limited to 60 a minute per client address (`429 TOO_MANY_REQUESTS`).
         */
        post: operations["createPasskeyAuthenticationOptions"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/passkeys/removal": {
        parameters: {
            query?: never;
            header: {
                /** @description Version of the core API contract the client speaks. Must be `1`. */
                "cosafe-core-api-version": components["parameters"]["ApiVersionHeader"];
            };
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Remove a passkey by the link of its notice
         * @description Removes the passkey whose addition the user was told of by email: the notice carries a link to the sign-in app
         *     with a `token` (256 random bits; the region keeps only a keyed hash of it), and the app sends it here. No
         *     session is needed: the link is the proof that the mailbox's owner asks. The token removes exactly that passkey,
         *     once: the passkey goes with its token, so a second use (or a token that was never sent, or one older than
         *     7 days) answers `404 NOT_FOUND`. The user is emailed that the passkey was removed; the removal is written to the
         *     audit log. The token travels in the body of a POST, never in a URL the API answers or logs, and no cookie is
         *     involved, so a forged cross-site request can do nothing its author could not do with the token itself.
         *
         *     Limited to 30 in 10 minutes per client address (`429 TOO_MANY_REQUESTS`).
         */
        post: operations["removePasskeyByLink"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/passkeys/{passkeyId}": {
        parameters: {
            query?: never;
            header: {
                /** @description Version of the core API contract the client speaks. Must be `1`. */
                "cosafe-core-api-version": components["parameters"]["ApiVersionHeader"];
            };
            path: {
                /** @description The passkey's id (a UUID; anything else answers `400 BAD_REQUEST`). */
                passkeyId: components["parameters"]["PasskeyId"];
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * Delete a passkey
         * @description Deletes one of the signed-in user's passkeys: it signs in no more, here or as a second factor (the browser or
         *     phone may still offer it until the user removes it there). Sessions it started stay signed in. A passkey that is
         *     not the caller's answers `404 NOT_FOUND`. The user is emailed, in their language, that a passkey was removed;
         *     the deletion is written to the audit log. As for a rename, the session must have proven the account's
         *     credentials within the last 5 minutes, else `401 REAUTHENTICATION_REQUIRED`.
         */
        delete: operations["deletePasskey"];
        options?: never;
        head?: never;
        /**
         * Rename a passkey
         * @description Renames one of the signed-in user's passkeys. A passkey that is not the caller's (another user's, deleted, or
         *     none) answers `404 NOT_FOUND`. The session must have proven the account's credentials within the last 5 minutes
         *     (a sign-in or `POST /sessions/{id}/reauthentication`), else `401 REAUTHENTICATION_REQUIRED`.
         */
        patch: operations["updatePasskey"];
        trace?: never;
    };
    "/probes/hash/{hash}": {
        parameters: {
            query?: never;
            header: {
                /** @description Version of the core API contract the client speaks. Must be `1`. */
                "cosafe-core-api-version": components["parameters"]["ApiVersionHeader"];
            };
            path: {
                /** @description The identity hash, SHA-256 of the lowercased email, as 64 lowercase hexadecimal digits. */
                hash: components["parameters"]["IdentityHash"];
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Probe credentials in this region
         * @description Tells whether the credentials are valid in this region, before a session is created. The path holds the
         *     identity hash (SHA-256 hex of the lowercased email), the body the password. The sign-in front end probes each
         *     region it may sign in at and creates the session in the region that answers `available: true` (or lets the user
         *     pick when several do).
         *
         *     `available` is true only when an account with this hash lives in this region and the password matches. An
         *     unknown email and a wrong password answer the same `200` with `available: false`, identically.
         *     A probe is held to exactly the rules of a `password` sign-in (`createSession`) and to no budget of its own:
         *     it is counted as a failed sign-in before the password is checked, against the same lockouts (per account and
         *     client address, per account from unfamiliar addresses, per client address; whether or not the account lives
         *     here), given back when the password matches, and refused with `429 TOO_MANY_REQUESTS` (with
         *     `unavailableUntil`) where a sign-in would be. Nothing keyed by the identity alone refuses the right password
         *     from an address the account completed a sign-in from. At the account's limit for unfamiliar addresses the
         *     right password answers `available: true` (the session that follows waits for an email code, see
         *     `createSession`) and a wrong one `429`.
         */
        post: operations["probeHash"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/probes/idpDomain/{idpDomain}": {
        parameters: {
            query?: never;
            header: {
                /** @description Version of the core API contract the client speaks. Must be `1`. */
                "cosafe-core-api-version": components["parameters"]["ApiVersionHeader"];
            };
            path: {
                /** @description A DNS domain name, such as the domain part of a user's email address. Compared case-insensitively. */
                idpDomain: components["parameters"]["IdpDomain"];
            };
            cookie?: never;
        };
        /**
         * Probe an SSO domain in this region
         * @description Tells whether users of a domain (such as the domain part of an email address) sign in with single sign-on in
         *     this region, and with which protocol (`oidc`, `saml` or `skolon`). A domain without single sign-on here answers
         *     `available: false` and `type: null`. Probes are throttled per client address (`429 TOO_MANY_REQUESTS`, with
         *     `unavailableUntil`).
         */
        get: operations["probeIdpDomain"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/push-tokens/{id}": {
        parameters: {
            query?: never;
            header: {
                /** @description Version of the core API contract the client speaks. Must be `1`. */
                "cosafe-core-api-version": components["parameters"]["ApiVersionHeader"];
            };
            path: {
                /**
                 * @description The device's push token as issued by the platform's push service (APNs, FCM or the desktop app), URL-encoded in the
                 *     path. It identifies the registration.
                 */
                id: components["parameters"]["PushTokenId"];
            };
            cookie?: never;
        };
        get?: never;
        /**
         * Register a push token
         * @description Registers the device push token in the path for the signed-in user, or updates its platform and app version
         *     when it is already registered. The call is idempotent and not tenant-scoped (no `cosafe-tenant-id`).
         */
        put: operations["putPushToken"];
        post?: never;
        /**
         * Remove a push token
         * @description Removes the signed-in user's registration of the device push token in the path; the device stops receiving
         *     push notifications. A token that is not registered for the caller answers `404 NOT_FOUND`.
         */
        delete: operations["deletePushToken"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/tenants": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List the caller's tenants
         * @description Lists the organisations the signed-in user belongs to. Any of their ids may be sent as
         *     `cosafe-tenant-id` on tenant-scoped calls. This call itself is not tenant-scoped.
         */
        get: operations["listTenants"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/users/password-reset": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Request a password reset
         * @description Asks for a password reset link for the account with this identity hash (SHA-256 hex of the lowercased email).
         *     When such an account lives in this region, a link to reset the password (valid 30 minutes) is emailed to it,
         *     in the user's `preferredLanguage`, else in the language of `Accept-Language`, else English. The link opens the
         *     sign-in app's `/reset-password` page with `userId`, `token` and `region` (the code of the region that issued
         *     it, where the app checks and uses the token and nowhere else); invitation links (`/set-password`) carry the same.
         *     The answer is `202` with no body whether or not the account exists. Requests are throttled per client address
         *     and per hash (`429 TOO_MANY_REQUESTS`, with `unavailableUntil`).
         */
        post: operations["requestPasswordReset"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/users/password-change": {
        parameters: {
            query?: never;
            header: {
                /** @description Version of the core API contract the client speaks. Must be `1`. */
                "cosafe-core-api-version": components["parameters"]["ApiVersionHeader"];
            };
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Change the caller's password
         * @description Changes the signed-in user's password. The current password is the proof: it is checked as a password sign-in
         *     checks it, in the same line and with the same lockouts (a wrong one answers `401 INVALID_CREDENTIALS` and counts
         *     as a failed sign-in of the account from this address; while locked, `429`), so no recent sign-in is needed
         *     besides, and a stolen access token alone changes nothing. An account without a password (single sign-on, a
         *     passkey or coAlert code only) answers `401 INVALID_CREDENTIALS` too: it sets one with a reset link.
         *
         *     The new password must follow the password rules and not be too common or breached (`400 BAD_REQUEST` with one
         *     issue per broken rule at `/newPassword`, see `NewPassword`), and may not be the current one (rule
         *     `PASSWORD_UNCHANGED`). The length and character classes are the contract's, checked before anything; the
         *     breached list and `PASSWORD_UNCHANGED` only once the current password is proven, so neither answer helps
         *     whoever does not know it.
         *
         *     On success every other session of the user in this region ends (the caller's goes on, its credentials proven
         *     now), passkeys stay, the change is recorded as a security event, and the user is emailed, in their language,
         *     that the password was changed (with the time and the coarse network, and what to do if it was not her). Not
         *     tenant-scoped (no `cosafe-tenant-id`).
         */
        post: operations["changePassword"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/users/{userId}": {
        parameters: {
            query?: never;
            header: {
                /** @description Version of the core API contract the client speaks. Must be `1`. */
                "cosafe-core-api-version": components["parameters"]["ApiVersionHeader"];
                /** @description The tenant the call acts in; the signed-in user must belong to it, else `403 FORBIDDEN`. */
                "cosafe-tenant-id": components["parameters"]["TenantIdHeader"];
            };
            path: {
                /** @description The user id. */
                userId: components["parameters"]["UserId"];
            };
            cookie?: never;
        };
        /**
         * Get a user
         * @description Reads the profile of a user of the tenant. A caller outside the tenant answers `403 FORBIDDEN`; a user who does
         *     not exist or is not in the tenant answers `404 NOT_FOUND`.
         */
        get: operations["getUser"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        /**
         * Update a user
         * @description Changes the user's secondary phone number and/or `unavailableUntil` (until when the user is away); nothing else
         *     of the profile may change here. `null` removes the secondary phone number or marks the user available again.
         *     Only the user themself may make these changes; another user answers `403 FORBIDDEN`. A user who does not exist
         *     or is not in the tenant answers `404 NOT_FOUND`.
         */
        patch: operations["updateUser"];
        trace?: never;
    };
    "/users/{userId}/settings": {
        parameters: {
            query?: never;
            header: {
                /** @description Version of the core API contract the client speaks. Must be `1`. */
                "cosafe-core-api-version": components["parameters"]["ApiVersionHeader"];
                /** @description The tenant the call acts in; the signed-in user must belong to it, else `403 FORBIDDEN`. */
                "cosafe-tenant-id": components["parameters"]["TenantIdHeader"];
            };
            path: {
                /** @description The user id. */
                userId: components["parameters"]["UserId"];
            };
            cookie?: never;
        };
        /**
         * Get a user's settings
         * @description Reads the user's preferences: emails, push notifications and interface language. Only the user themself may
         *     read them; another user answers `403 FORBIDDEN`. A user who does not exist or is not in the tenant answers
         *     `404 NOT_FOUND`.
         */
        get: operations["getUserSettings"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        /**
         * Update a user's settings
         * @description Changes the user's preferences; properties left out keep their value, also inside `notifications`.
         *     `preferredLanguage: null` clears the language choice. Only the user themself may change them; another user
         *     answers `403 FORBIDDEN`. A user who does not exist or is not in the tenant answers `404 NOT_FOUND`.
         */
        patch: operations["updateUserSettings"];
        trace?: never;
    };
    "/users/{userId}/permissions": {
        parameters: {
            query?: never;
            header: {
                /** @description Version of the core API contract the client speaks. Must be `1`. */
                "cosafe-core-api-version": components["parameters"]["ApiVersionHeader"];
                /** @description The tenant the call acts in; the signed-in user must belong to it, else `403 FORBIDDEN`. */
                "cosafe-tenant-id": components["parameters"]["TenantIdHeader"];
            };
            path: {
                /** @description The user id. */
                userId: components["parameters"]["UserId"];
            };
            cookie?: never;
        };
        /**
         * Get a user's permissions
         * @description Reads what the user may do in the tenant: for every area its may-flags and its display order. Permissions are
         *     per tenant. Only the user themself may read them; another user answers `403 FORBIDDEN`. A user who does not exist or is not in the tenant answers `404 NOT_FOUND`.
         */
        get: operations["getUserPermissions"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/users/{userId}/password-set": {
        parameters: {
            query?: never;
            header: {
                /** @description Version of the core API contract the client speaks. Must be `1`. */
                "cosafe-core-api-version": components["parameters"]["ApiVersionHeader"];
            };
            path: {
                /** @description The user id. */
                userId: components["parameters"]["UserId"];
            };
            cookie?: never;
        };
        /**
         * Check an invitation token
         * @description Tells whether the token of an invitation link (to set the first password) can still be used, so the page can
         *     show the form or explain why not: `valid`, `expired` (an invitation link is valid 30 days), `invalid` (unknown,
         *     or not this user's; also for an unknown user) or `used` (the password has been set). The token is sent in the
         *     `cosafe-password-token` header, never in the URL (a `token` query parameter answers `400 BAD_REQUEST`). Checks
         *     are throttled per client address (`429 TOO_MANY_REQUESTS`).
         */
        get: operations["getPasswordSetToken"];
        put?: never;
        /**
         * Set the first password
         * @description Sets the first password of an invited user with the token of the invitation link (valid 30 days, usable once).
         *     The password must follow the password rules (see `NewPassword`); each broken rule is an issue of
         *     `400 BAD_REQUEST`. An unknown token, or one that is not this user's, answers `400 USER_PASSWORD_SET_TOKEN_INVALID`
         *     (also for an unknown user); an expired one `410 USER_PASSWORD_SET_TOKEN_EXPIRED`; when the password is already
         *     set (the token was used) the answer is `409 USER_PASSWORD_ALREADY_SET`. Token checks and uses are counted per
         *     client address before the token is looked at (30 per 10 minutes, `429 TOO_MANY_REQUESTS`).
         */
        post: operations["setPassword"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/users/{userId}/password-reset": {
        parameters: {
            query?: never;
            header: {
                /** @description Version of the core API contract the client speaks. Must be `1`. */
                "cosafe-core-api-version": components["parameters"]["ApiVersionHeader"];
            };
            path: {
                /** @description The user id. */
                userId: components["parameters"]["UserId"];
            };
            cookie?: never;
        };
        /**
         * Check a password reset token
         * @description Tells whether the token of a password reset link can still be used, so the page can show the form or explain
         *     why not: `valid`, `expired` (a reset link is valid 30 minutes), `invalid` (unknown, or not this user's; also for
         *     an unknown user) or `used` (the password has been reset with it). The token is sent in the
         *     `cosafe-password-token` header, never in the URL (a `token` query parameter answers `400 BAD_REQUEST`). Checks
         *     are throttled per client address (`429 TOO_MANY_REQUESTS`).
         */
        get: operations["getPasswordResetToken"];
        put?: never;
        /**
         * Reset the password
         * @description Replaces the user's password with the token of a password reset link (valid 30 minutes, usable once; see
         *     `requestPasswordReset`). The password must follow the password rules (see `NewPassword`); each broken rule is an
         *     issue of `400 BAD_REQUEST`. An unknown token, one that is not this user's or one already used answers
         *     `400 USER_PASSWORD_SET_TOKEN_INVALID` (also for an unknown user); an expired one
         *     `410 USER_PASSWORD_SET_TOKEN_EXPIRED`. A successful reset revokes all of the user's sessions and closes every other
         *     link of the user. Token checks and uses are counted per client address before the token is looked at (30 per
         *     10 minutes, `429 TOO_MANY_REQUESTS`).
         */
        post: operations["resetPassword"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/users/{userId}/sessions": {
        parameters: {
            query?: never;
            header: {
                /** @description Version of the core API contract the client speaks. Must be `1`. */
                "cosafe-core-api-version": components["parameters"]["ApiVersionHeader"];
                /** @description The tenant the call acts in; the signed-in user must belong to it, else `403 FORBIDDEN`. */
                "cosafe-tenant-id": components["parameters"]["TenantIdHeader"];
            };
            path: {
                /** @description The user id. */
                userId: components["parameters"]["UserId"];
            };
            cookie?: never;
        };
        /**
         * List a member's sessions
         * @description For an administrator of the tenant (`cosafe-tenant-id`): the member's live sessions in this region, as
         *     `GET /sessions` shows the user her own (`current` marks the caller's own session, when the member is the
         *     caller). A caller who does not administer the tenant answers `403 FORBIDDEN`; to an administrator, a user who is
         *     not an active member of the tenant (another tenant's member, or none) answers `404 NOT_FOUND`.
         */
        get: operations["listMemberSessions"];
        put?: never;
        post?: never;
        /**
         * End all of a member's sessions
         * @description For an administrator of the tenant (`cosafe-tenant-id`): ends every live session of the member in this region
         *     (a lost phone, a suspected takeover); their access and refresh tokens stop working at once, and the member signs
         *     in again. Answers how many ended.
         *
         *     A session is not a tenant's: it is the user's, and acts in every tenant she belongs to. So an administrator ends
         *     a member's sessions only when she administers every tenant the member belongs to in this region; when the member
         *     also belongs to a tenant the caller does not administer, the answer is `403 FORBIDDEN` and nothing ends (an
         *     administrator of each of those tenants, or the member herself, may end them). A caller who does not administer
         *     the tenant of the request answers `403 FORBIDDEN`; a user who is not a member of that tenant answers
         *     `404 NOT_FOUND`. The ending is recorded as a security event of the member, by the administrator.
         */
        delete: operations["deleteMemberSessions"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/users/{userId}/sessions/{sessionId}": {
        parameters: {
            query?: never;
            header: {
                /** @description Version of the core API contract the client speaks. Must be `1`. */
                "cosafe-core-api-version": components["parameters"]["ApiVersionHeader"];
                /** @description The tenant the call acts in; the signed-in user must belong to it, else `403 FORBIDDEN`. */
                "cosafe-tenant-id": components["parameters"]["TenantIdHeader"];
            };
            path: {
                /** @description The user id. */
                userId: components["parameters"]["UserId"];
                /** @description The id of one of the member's sessions (see `GET /users/{userId}/sessions`). */
                sessionId: components["parameters"]["MemberSessionId"];
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * End one of a member's sessions
         * @description For an administrator of the tenant (`cosafe-tenant-id`): ends one session of the member (see
         *     `GET /users/{userId}/sessions`), under the same rule as `DELETE /users/{userId}/sessions`: the caller must
         *     administer every tenant the member belongs to in this region, else `403 FORBIDDEN` and nothing ends. A session
         *     that is not the member's (another user's, or none) answers `404 NOT_FOUND`; one that has already ended answers
         *     `204` again. The ending is recorded as a security event of the member, by the administrator.
         */
        delete: operations["deleteMemberSession"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/groups": {
        parameters: {
            query?: never;
            header: {
                /** @description Version of the core API contract the client speaks. Must be `1`. */
                "cosafe-core-api-version": components["parameters"]["ApiVersionHeader"];
                /** @description The tenant the call acts in; the signed-in user must belong to it, else `403 FORBIDDEN`. */
                "cosafe-tenant-id": components["parameters"]["TenantIdHeader"];
            };
            path?: never;
            cookie?: never;
        };
        /**
         * List groups
         * @description Lists the groups the caller may see in the tenant, ordered by name (ties by id). Which groups appear follows
         *     the caller's group permissions: with `groups.mayInteractWithAll` all groups of the tenant (including
         *     cross-organisation groups it takes part in), with only `groups.mayInteractWithOwn` the groups the caller is a
         *     member of, and with neither no groups (an empty list). Groups of type `hidden` appear only to their members
         *     and to admins.
         *
         *     The filters combine with AND: `function[in]` keeps groups that have at least one of the given functions
         *     enabled; `name[match]` keeps groups whose name contains the text (case-insensitive; `%` and `_` are
         *     literal); `membersCount[gte]` keeps groups with at least that many members; `memberUserId` keeps groups
         *     that user is a member of (still only among the groups the caller may see).
         *
         *     Answers `400 BAD_REQUEST` for invalid filters and `403 FORBIDDEN` when the caller does not belong to the
         *     tenant.
         */
        get: operations["listGroups"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/groups/{groupId}": {
        parameters: {
            query?: never;
            header: {
                /** @description Version of the core API contract the client speaks. Must be `1`. */
                "cosafe-core-api-version": components["parameters"]["ApiVersionHeader"];
                /** @description The tenant the call acts in; the signed-in user must belong to it, else `403 FORBIDDEN`. */
                "cosafe-tenant-id": components["parameters"]["TenantIdHeader"];
            };
            path: {
                /** @description The group id. */
                groupId: components["parameters"]["GroupId"];
            };
            cookie?: never;
        };
        /**
         * Get a group
         * @description Answers one group. The same visibility rules as in the list apply (`groups.mayInteractWithOwn` /
         *     `groups.mayInteractWithAll`; `hidden` groups only for their members and admins): a group that does not exist
         *     or that the caller may not see answers `404 NOT_FOUND`, alike. Answers `403 FORBIDDEN` when the caller does
         *     not belong to the tenant.
         */
        get: operations["getGroup"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/groups/{groupId}/members": {
        parameters: {
            query?: never;
            header: {
                /** @description Version of the core API contract the client speaks. Must be `1`. */
                "cosafe-core-api-version": components["parameters"]["ApiVersionHeader"];
                /** @description The tenant the call acts in; the signed-in user must belong to it, else `403 FORBIDDEN`. */
                "cosafe-tenant-id": components["parameters"]["TenantIdHeader"];
            };
            path: {
                /** @description The group id. */
                groupId: components["parameters"]["GroupId"];
            };
            cookie?: never;
        };
        /**
         * List group members
         * @description Lists the members of a group the caller may see, each with `isAdmin` (whether they administer the group).
         *     Sorted by `sort` (default `name:asc`); the order is stable, ties are broken by user id ascending. Users
         *     without a title sort after those with one in `title:asc` and before them in `title:desc`. `name[match]` keeps
         *     members whose name contains the text (case-insensitive; `%` and `_` are literal).
         *
         *     A group that does not exist or that the caller may not see answers `404 NOT_FOUND`. Answers
         *     `400 BAD_REQUEST` for invalid parameters and `403 FORBIDDEN` when the caller does not belong to the tenant.
         */
        get: operations["listGroupMembers"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/meeting-rooms": {
        parameters: {
            query?: never;
            header: {
                /** @description Version of the core API contract the client speaks. Must be `1`. */
                "cosafe-core-api-version": components["parameters"]["ApiVersionHeader"];
                /** @description The tenant the call acts in; the signed-in user must belong to it, else `403 FORBIDDEN`. */
                "cosafe-tenant-id": components["parameters"]["TenantIdHeader"];
            };
            path?: never;
            cookie?: never;
        };
        /**
         * List meeting rooms
         * @description Lists the tenant's video meeting rooms, ordered by name (ties by id). With `status=active` only rooms with
         *     `isActive: true` are listed; without it, all rooms.
         *
         *     Answers `400 BAD_REQUEST` for invalid parameters and `403 FORBIDDEN` when the caller does not belong to the
         *     tenant or lacks the `meetingRoom.mayJoin` permission.
         */
        get: operations["listMeetingRooms"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api-keys": {
        parameters: {
            query?: never;
            header: {
                /** @description Version of the core API contract the client speaks. Must be `1`. */
                "cosafe-core-api-version": components["parameters"]["ApiVersionHeader"];
                /** @description The tenant the call acts in; the signed-in user must belong to it, else `403 FORBIDDEN`. */
                "cosafe-tenant-id": components["parameters"]["TenantIdHeader"];
            };
            path?: never;
            cookie?: never;
        };
        /**
         * List api keys
         * @description Lists the tenant's api keys, newest first (ties by id). Key values are never listed; a key's secret is
         *     shown only once, when it is created.
         *
         *     Answers `403 FORBIDDEN` when the caller does not belong to the tenant or may not manage its api keys.
         */
        get: operations["listApiKeys"];
        put?: never;
        /**
         * Create an api key
         * @description Creates an api key with scope `scim` for machine-to-machine SCIM provisioning. The answer holds `key`, the
         *     secret (prefix `csk_` and at least 256 random bits in base64url); it is shown only in this answer and cannot
         *     be read again, since only a hash of it is stored.
         *
         *     A tenant has at most 25 keys; creating one more answers `409 LIMIT_REACHED`. Answers `400 BAD_REQUEST` for
         *     an invalid body and `403 FORBIDDEN` when the caller does not belong to the tenant or may not manage its api
         *     keys.
         */
        post: operations["createApiKey"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api-keys/{apiKeyId}": {
        parameters: {
            query?: never;
            header: {
                /** @description Version of the core API contract the client speaks. Must be `1`. */
                "cosafe-core-api-version": components["parameters"]["ApiVersionHeader"];
                /** @description The tenant the call acts in; the signed-in user must belong to it, else `403 FORBIDDEN`. */
                "cosafe-tenant-id": components["parameters"]["TenantIdHeader"];
            };
            path: {
                /** @description The api key id (a UUID; anything else answers `400 BAD_REQUEST`). */
                apiKeyId: components["parameters"]["ApiKeyId"];
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * Delete an api key
         * @description Deletes the api key; it stops working at once. An `apiKeyId` that is not a UUID answers `400 BAD_REQUEST`;
         *     an unknown key or a key of another tenant answers `404 NOT_FOUND`, alike. Answers `403 FORBIDDEN` when the
         *     caller does not belong to the tenant or may not manage its api keys.
         */
        delete: operations["deleteApiKey"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/contacts": {
        parameters: {
            query?: never;
            header: {
                /** @description Version of the core API contract the client speaks. Must be `1`. */
                "cosafe-core-api-version": components["parameters"]["ApiVersionHeader"];
                /** @description The tenant the call acts in; the signed-in user must belong to it, else `403 FORBIDDEN`. */
                "cosafe-tenant-id": components["parameters"]["TenantIdHeader"];
            };
            path?: never;
            cookie?: never;
        };
        /**
         * List contacts
         * @description Lists the support and data-protection contacts of the tenant's accounts, ordered by name (ties by id).
         *     `accountId` keeps the contacts of that account (an account outside the tenant gives an empty list);
         *     `type` keeps contacts of that type.
         *
         *     Answers `400 BAD_REQUEST` for invalid parameters and `403 FORBIDDEN` when the caller does not belong to the
         *     tenant.
         */
        get: operations["listContacts"];
        put?: never;
        /**
         * Create a contact
         * @description Adds a support or data-protection contact to an account of the tenant. All fields are required; `email`
         *     must be a valid email address and `phoneNumber` `+` followed by digits (at most 16 characters).
         *
         *     Answers `400 BAD_REQUEST` for an invalid body, `403 INSUFFICIENT_PRIVILEGES` when the caller may not change
         *     contacts (`403 FORBIDDEN` when the caller does not belong to the tenant) and `404 NOT_FOUND` when
         *     `accountId` is not an account of the tenant.
         */
        post: operations["createContact"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/contacts/{contactId}": {
        parameters: {
            query?: never;
            header: {
                /** @description Version of the core API contract the client speaks. Must be `1`. */
                "cosafe-core-api-version": components["parameters"]["ApiVersionHeader"];
                /** @description The tenant the call acts in; the signed-in user must belong to it, else `403 FORBIDDEN`. */
                "cosafe-tenant-id": components["parameters"]["TenantIdHeader"];
            };
            path: {
                /** @description The contact id. */
                contactId: components["parameters"]["ContactId"];
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * Delete a contact
         * @description Deletes a contact. Answers `403 INSUFFICIENT_PRIVILEGES` when the caller may not change contacts
         *     (`403 FORBIDDEN` when the caller does not belong to the tenant) and `404 NOT_FOUND` for a contact that does
         *     not exist or is not of the tenant.
         */
        delete: operations["deleteContact"];
        options?: never;
        head?: never;
        /**
         * Update a contact
         * @description Changes the given fields of a contact (at least one); the others keep their values. The account of a contact
         *     cannot be changed.
         *
         *     Answers `400 BAD_REQUEST` for an invalid or empty body, `403 INSUFFICIENT_PRIVILEGES` when the caller may not
         *     change contacts (`403 FORBIDDEN` when the caller does not belong to the tenant) and `404 NOT_FOUND` for a
         *     contact that does not exist or is not of the tenant.
         */
        patch: operations["updateContact"];
        trace?: never;
    };
    "/external-communications/groups": {
        parameters: {
            query?: never;
            header: {
                /** @description Version of the core API contract the client speaks. Must be `1`. */
                "cosafe-core-api-version": components["parameters"]["ApiVersionHeader"];
                /** @description The tenant the call acts in; the signed-in user must belong to it, else `403 FORBIDDEN`. */
                "cosafe-tenant-id": components["parameters"]["TenantIdHeader"];
            };
            path?: never;
            cookie?: never;
        };
        /**
         * List external communication groups
         * @description Lists the tenant's external communication groups (the groups a message can be sent to), with the number of
         *     members of each, ordered by name. Needs the `cec.maySend` permission, else `403 INSUFFICIENT_PRIVILEGES`.
         */
        get: operations["listCecGroups"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/external-communications/templates": {
        parameters: {
            query?: never;
            header: {
                /** @description Version of the core API contract the client speaks. Must be `1`. */
                "cosafe-core-api-version": components["parameters"]["ApiVersionHeader"];
                /** @description The tenant the call acts in; the signed-in user must belong to it, else `403 FORBIDDEN`. */
                "cosafe-tenant-id": components["parameters"]["TenantIdHeader"];
            };
            path?: never;
            cookie?: never;
        };
        /**
         * List external communication templates
         * @description Lists the tenant's message templates (ready-made texts to start a message from), ordered by name. Needs the
         *     `cec.maySend` permission, else `403 INSUFFICIENT_PRIVILEGES`.
         */
        get: operations["listCecTemplates"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/external-communications/messages": {
        parameters: {
            query?: never;
            header: {
                /** @description Version of the core API contract the client speaks. Must be `1`. */
                "cosafe-core-api-version": components["parameters"]["ApiVersionHeader"];
                /** @description The tenant the call acts in; the signed-in user must belong to it, else `403 FORBIDDEN`. */
                "cosafe-tenant-id": components["parameters"]["TenantIdHeader"];
            };
            path?: never;
            cookie?: never;
        };
        /**
         * List external communication messages
         * @description Lists the tenant's sent external communication messages, newest first (by `sentAt`). `content[match]` keeps
         *     messages whose text contains the given text, ignoring case (`%` and `_` are literal characters);
         *     `externalCommunicationGroupIds` keeps messages sent to at least one of the given groups. Needs the
         *     `cec.maySend` permission, else `403 INSUFFICIENT_PRIVILEGES`.
         */
        get: operations["listCecMessages"];
        put?: never;
        /**
         * Send an external communication message
         * @description Sends a message to the members of one or more external communication groups by email and/or SMS, optionally
         *     also as a voice call and with a confirmation link. The message is stored at once and answered with `201`;
         *     delivery to the recipients runs in the background (see the recipients list for its progress and
         *     confirmations).
         *
         *     Rules: at least one group, a non-blank text, and at least one of `channel.isEmail` and `channel.isSms`
         *     true. The last rule is not expressed in the schema; breaking it answers `400 BAD_REQUEST` with the message
         *     'At least one of 'isEmail' or 'isSms' must be true'.
         *
         *     Errors: `400 BAD_REQUEST`; `403 INSUFFICIENT_PRIVILEGES` when the caller lacks `cec.maySend`;
         *     `403 CEC_MESSAGE_GROUP_FORBIDDEN` when a group does not exist, belongs to another tenant or may not be sent
         *     to; `409 CEC_TENANT_CONFIGURATION_INCOMPLETE` when the tenant has no sender settings for external
         *     communication; `429 TOO_MANY_REQUESTS` (with `unavailableUntil`, `Retry-After` and the `administrators` to
         *     ask) when the sender has sent their quota of external messages this hour (30 by default) or the tenant its
         *     higher ceiling over all its senders (300 by default); neither refuses a tenant administrator's own messages,
         *     unless a tenant administrator lifted them for the hour (`liftCecCeiling`); nothing is stored then. Only
         *     stored messages count, never a refused request.
         */
        post: operations["sendCecMessage"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/external-communications/messages/{messageId}": {
        parameters: {
            query?: never;
            header: {
                /** @description Version of the core API contract the client speaks. Must be `1`. */
                "cosafe-core-api-version": components["parameters"]["ApiVersionHeader"];
                /** @description The tenant the call acts in; the signed-in user must belong to it, else `403 FORBIDDEN`. */
                "cosafe-tenant-id": components["parameters"]["TenantIdHeader"];
            };
            path: {
                /** @description The external communication message id. */
                messageId: components["parameters"]["CecMessageId"];
            };
            cookie?: never;
        };
        /**
         * Get an external communication message
         * @description Answers one sent message of the tenant. Needs the `cec.maySend` permission, else
         *     `403 INSUFFICIENT_PRIVILEGES`; a message that does not exist or belongs to another tenant answers
         *     `404 CEC_MESSAGE_NOT_FOUND`.
         */
        get: operations["getCecMessage"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/external-communications/messages/{messageId}/recipients": {
        parameters: {
            query?: never;
            header: {
                /** @description Version of the core API contract the client speaks. Must be `1`. */
                "cosafe-core-api-version": components["parameters"]["ApiVersionHeader"];
                /** @description The tenant the call acts in; the signed-in user must belong to it, else `403 FORBIDDEN`. */
                "cosafe-tenant-id": components["parameters"]["TenantIdHeader"];
            };
            path: {
                /** @description The external communication message id. */
                messageId: components["parameters"]["CecMessageId"];
            };
            cookie?: never;
        };
        /**
         * List the recipients of a message
         * @description Lists the recipients of a sent message, ordered by name, with where the message went by each channel
         *     (`dispatches.byEmail` / `dispatches.bySms`, null when not sent by that channel), how far each delivery got
         *     (`status`) and when the recipient confirmed it through that delivery's confirmation link (`readAt`, null
         *     until then). Recipients appear once the message's groups have been expanded, a moment after sending; a
         *     person in several of the message's groups is one recipient. Needs the `cec.maySend`
         *     permission, else `403 INSUFFICIENT_PRIVILEGES`; a message that does not exist or belongs to another tenant
         *     answers `404 CEC_MESSAGE_NOT_FOUND`.
         */
        get: operations["listCecMessageRecipients"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/external-communications/ceiling-lifts": {
        parameters: {
            query?: never;
            header: {
                /** @description Version of the core API contract the client speaks. Must be `1`. */
                "cosafe-core-api-version": components["parameters"]["ApiVersionHeader"];
                /** @description The tenant the call acts in; the signed-in user must belong to it, else `403 FORBIDDEN`. */
                "cosafe-tenant-id": components["parameters"]["TenantIdHeader"];
            };
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Lift the tenant's ceiling of external messages for the next hour
         * @description External messages are bounded per sender (`EXTERNAL_MESSAGES_PER_SENDER_PER_HOUR`, 30 an hour by default)
         *     and, as a higher ceiling over all of the tenant's senders, per tenant (`EXTERNAL_MESSAGES_PER_TENANT_PER_HOUR`,
         *     300 an hour by default). A tenant administrator lifts both for the tenant for the next hour from now: until
         *     `liftedUntil`, no quota refuses an external message of the tenant. A later lift extends it to an hour from then.
         *     Each lift is recorded (who, when, until when, the reason given) and logged; the operator tool does the same
         *     (`npm run admin -- cec-ceiling lift`).
         *
         *     Only an administrator of the tenant may lift it, else `403 FORBIDDEN`.
         */
        post: operations["liftCecCeiling"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/personal-alarms": {
        parameters: {
            query?: never;
            header: {
                /** @description Version of the core API contract the client speaks. Must be `1`. */
                "cosafe-core-api-version": components["parameters"]["ApiVersionHeader"];
                /** @description The tenant the call acts in; the signed-in user must belong to it, else `403 FORBIDDEN`. */
                "cosafe-tenant-id": components["parameters"]["TenantIdHeader"];
            };
            path?: never;
            cookie?: never;
        };
        /**
         * List personal alarms
         * @description Lists the tenant's personal alarms, newest first (by `createdTime`). `status=active` keeps only active alarms.
         *     Needs the `alarms.mayActivate` or `alarms.mayDeactivate` permission, else `403 FORBIDDEN`.
         */
        get: operations["listPersonalAlarms"];
        put?: never;
        /**
         * Create a personal alarm
         * @description Creates a personal alarm (lone-worker timer) for the sender's user and device. Unless it is deactivated before
         *     `dispatchAt`, the alarm text goes to the recipients at that time (with `oneMinuteWarning`, the sender is warned
         *     a minute before). With `active: false` the alarm is created without a running timer, to be activated later.
         *     The optional `location` (non-negative latitude and longitude) is stored and answered as `locationId`.
         *
         *     Recipients are the users in `recipientUserIds` and the members of the groups in `groupIds`; ids that are not
         *     users or groups of the tenant are left out, and if no recipient remains the call answers
         *     `400 PERSONAL_ALARM_NOT_FOUND_RECIPIENTS`. A device may have only one active alarm: creating an active alarm
         *     for a device that already has one answers `409 PERSONAL_ALARM_CONFLICT`. Needs the `alarms.mayActivate`
         *     permission, else `403 FORBIDDEN`; `sender.userId` must be the caller (the timer runs for the person carrying
         *     the device), else `403 FORBIDDEN`. An active alarm whose `dispatchAt` has already passed is dispatched at once
         *     (a past `dispatchAt` means now).
         *
         *     An alarm that goes off now (created active with a `dispatchAt` at most a minute ahead or already passed) is
         *     never refused by a quota and counts towards none. Other alarms count towards the sender's (the caller's) quota
         *     of alarms created, per hour (60 by default), once they are created: a refused request (4xx) spends nothing.
         *     Past it the call answers `429 TOO_MANY_REQUESTS` with `unavailableUntil` and `Retry-After`, and nothing is
         *     created.
         *
         *     Abuse is bounded in the fan-out instead: every alarm goes off, but one that goes off within a minute (by
         *     default) after an alarm of the same owner to the same recipients (the same `recipientUserIds` and `groupIds`)
         *     was delivered is not delivered on its own: it is counted, and when that minute ends the recipients get one
         *     message that says how many alarms it stands for, since when, with the latest one's text and location. The
         *     tenant's administrators are emailed when an hour's alarms are well above the tenant's usual rate (at most once
         *     an hour).
         */
        post: operations["createPersonalAlarm"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/personal-alarms/{id}": {
        parameters: {
            query?: never;
            header: {
                /** @description Version of the core API contract the client speaks. Must be `1`. */
                "cosafe-core-api-version": components["parameters"]["ApiVersionHeader"];
                /** @description The tenant the call acts in; the signed-in user must belong to it, else `403 FORBIDDEN`. */
                "cosafe-tenant-id": components["parameters"]["TenantIdHeader"];
            };
            path: {
                /** @description The personal alarm id. */
                id: components["parameters"]["PersonalAlarmId"];
            };
            cookie?: never;
        };
        /**
         * Get a personal alarm
         * @description Answers one personal alarm of the tenant; an alarm that does not exist or belongs to another tenant answers
         *     `404 PERSONAL_ALARM_NOT_FOUND`. Needs the `alarms.mayActivate` or `alarms.mayDeactivate` permission, else
         *     `403 FORBIDDEN`.
         */
        get: operations["getPersonalAlarm"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        /**
         * Update a personal alarm
         * @description Changes a personal alarm, typically to extend or change the timer (`dispatchAt`); the text, location, one-minute
         *     warning and recipients can change too. Only the given properties change; `recipientUserIds` and `groupIds`
         *     replace the previous lists, and if no valid recipient remains the call answers
         *     `400 PERSONAL_ALARM_NOT_FOUND_RECIPIENTS`. An alarm that has already been dispatched (its `messageId` is set)
         *     can no longer be changed: `409 PERSONAL_ALARM_CONFLICT`. An unknown id answers `404 PERSONAL_ALARM_NOT_FOUND`.
         *     Needs the `alarms.mayActivate` permission, else `403 FORBIDDEN`.
         *     Only the alarm's owner may change it, or an operator acting for them: an administrator of the tenant (the
         *     membership's tenant-administrator role) who also holds `alarms.mayActivate`; anyone else answers
         *     `403 FORBIDDEN`. Every change is recorded (who, when, each changed field from → to), and a change by someone
         *     other than the owner sends the owner a notice in their language naming who changed what.
         *     A change counts towards no quota and is never refused by one: moving an active alarm's `dispatchAt` to at
         *     most a minute ahead or into the past dispatches it at once (the owner's, or an operator's "send now").
         */
        patch: operations["updatePersonalAlarm"];
        trace?: never;
    };
    "/personal-alarms/{id}/activate": {
        parameters: {
            query?: never;
            header: {
                /** @description Version of the core API contract the client speaks. Must be `1`. */
                "cosafe-core-api-version": components["parameters"]["ApiVersionHeader"];
                /** @description The tenant the call acts in; the signed-in user must belong to it, else `403 FORBIDDEN`. */
                "cosafe-tenant-id": components["parameters"]["TenantIdHeader"];
            };
            path: {
                /** @description The personal alarm id. */
                id: components["parameters"]["PersonalAlarmId"];
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Activate a personal alarm
         * @description Starts the alarm's timer (sets `active` to true); there is no body. The alarm is dispatched at its
         *     `dispatchTime` unless deactivated before. Activating an alarm that is already active answers it unchanged.
         *     A device may have only one active alarm: if another alarm of the same device is active the call answers
         *     `409 PERSONAL_ALARM_CONFLICT`, as does an alarm that has already been dispatched (its `messageId` is set;
         *     create a new one instead). An alarm whose `dispatchTime` has already passed is dispatched at once. An unknown
         *     id answers `404 PERSONAL_ALARM_NOT_FOUND`. Needs the
         *     `alarms.mayActivate` permission, else `403 FORBIDDEN`.
         *     Only the alarm's owner may start it, or an operator acting for them: an administrator of the tenant who also
         *     holds `alarms.mayActivate`; anyone else answers `403 FORBIDDEN`. The start is recorded, and the owner gets a
         *     notice when someone else started it.
         *     A start counts towards no quota and is never refused by one: an alarm whose `dispatchTime` is at most a minute
         *     ahead or has passed goes off at once.
         */
        post: operations["activatePersonalAlarm"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/personal-alarms/{id}/deactivate": {
        parameters: {
            query?: never;
            header: {
                /** @description Version of the core API contract the client speaks. Must be `1`. */
                "cosafe-core-api-version": components["parameters"]["ApiVersionHeader"];
                /** @description The tenant the call acts in; the signed-in user must belong to it, else `403 FORBIDDEN`. */
                "cosafe-tenant-id": components["parameters"]["TenantIdHeader"];
            };
            path: {
                /** @description The personal alarm id. */
                id: components["parameters"]["PersonalAlarmId"];
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Deactivate a personal alarm
         * @description Stops the alarm's timer (sets `active` to false) so it is not dispatched; there is no body. Deactivating an
         *     alarm that is not active answers it unchanged. An unknown id answers `404 PERSONAL_ALARM_NOT_FOUND`. Needs
         *     the `alarms.mayDeactivate` permission, else `403 FORBIDDEN`.
         *     The owner may stop their own alarm; someone else's alarm may be stopped only by an operator: an administrator
         *     of the tenant who also holds `alarms.mayDeactivate` (silencing a lone worker's alarm is as grave as moving
         *     it). Anyone else answers `403 FORBIDDEN`. The stop is recorded, and the owner gets a notice when someone
         *     else stopped it.
         */
        post: operations["deactivatePersonalAlarm"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/integrations/oidc": {
        parameters: {
            query?: never;
            header: {
                /** @description Version of the core API contract the client speaks. Must be `1`. */
                "cosafe-core-api-version": components["parameters"]["ApiVersionHeader"];
                /** @description The tenant the call acts in; the signed-in user must belong to it, else `403 FORBIDDEN`. */
                "cosafe-tenant-id": components["parameters"]["TenantIdHeader"];
            };
            path?: never;
            cookie?: never;
        };
        /**
         * Get OIDC settings
         * @description Answers the tenant's OpenID Connect single sign-on settings. The client secret is never returned.
         *
         *     Answers `404 NOT_FOUND` when the tenant has no OIDC settings and `403 FORBIDDEN` when the caller does not
         *     belong to the tenant or may not manage its single sign-on settings.
         */
        get: operations["getOidcSettings"];
        /**
         * Set OIDC settings
         * @description Creates or replaces the tenant's OpenID Connect single sign-on settings; all fields are required. The client
         *     secret is stored encrypted and is never returned. `createdAt` is kept when settings are replaced; `updatedAt`
         *     is set to now.
         *
         *     Answers `400 BAD_REQUEST` for an invalid body (empty `clientId` or `clientSecret`, a value that is not a URL,
         *     an endpoint whose host is a loopback, private, link-local, unique-local or other internal address, or
         *     `localhost`) and `403 FORBIDDEN` when the caller does not belong to the tenant or may not manage its single
         *     sign-on settings. The region reaches the endpoints at public addresses only: a name that resolves to an
         *     internal address, also after a redirect, is refused when the request is made, and every failure to reach the
         *     identity provider answers the same `503 SERVICE_UNAVAILABLE`.
         */
        put: operations["putOidcSettings"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/security-events": {
        parameters: {
            query?: never;
            header: {
                /** @description Version of the core API contract the client speaks. Must be `1`. */
                "cosafe-core-api-version": components["parameters"]["ApiVersionHeader"];
                /** @description The tenant the call acts in; the signed-in user must belong to it, else `403 FORBIDDEN`. */
                "cosafe-tenant-id": components["parameters"]["TenantIdHeader"];
            };
            path?: never;
            cookie?: never;
        };
        /**
         * List the tenant's security events
         * @description The security events of the tenant, for its administrators, newest first, a page at a time (`cursor`): the
         *     tenant's own events (a permission granted or revoked, a directory's or the operator tool's change to a member)
         *     and the account events (sign-ins, second factors, passkeys, passwords, sessions ended) of the tenant's current
         *     members. Another tenant's events, and the account events of people who are not members, are never listed.
         *     Filters combine: `userId` (one member), `kind` (any of several), `from` (inclusive) and `to` (exclusive).
         *
         *     Events are kept for the region's retention (180 days unless configured otherwise) and then removed.
         *
         *     Answers `403 FORBIDDEN` when the caller does not belong to the tenant or does not administer it.
         */
        get: operations["listSecurityEvents"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/account/security-events": {
        parameters: {
            query?: never;
            header: {
                /** @description Version of the core API contract the client speaks. Must be `1`. */
                "cosafe-core-api-version": components["parameters"]["ApiVersionHeader"];
            };
            path?: never;
            cookie?: never;
        };
        /**
         * List the caller's own security events
         * @description The security events of the signed-in user's own account in this region, newest first, a page at a time
         *     (`cursor`; 20 by default): her sign-ins, failed attempts, second factors, passkeys, passwords and sessions
         *     ended, and the changes to her memberships (permissions, a directory's changes) in any of her tenants. Not
         *     tenant-scoped (no `cosafe-tenant-id`). Filters as in `listSecurityEvents`, without `userId`.
         */
        get: operations["listOwnSecurityEvents"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/scim/v2/ServiceProviderConfig": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * SCIM service provider configuration
         * @description SCIM 2.0 (RFC 7643 section 5) discovery document for provisioning clients. Authenticated with an api key of
         *     scope `scim` sent as `Authorization: Bearer <key>`; user access tokens are not accepted here, and api keys are
         *     accepted nowhere else.
         */
        get: operations["getScimServiceProviderConfig"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/scim/v2/ResourceTypes": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * SCIM resource types
         * @description The resource types this service offers (RFC 7644 section 4): User and Group. Authenticated with an api key of scope `scim` (`Authorization: Bearer <key>`); the key decides the tenant.
         */
        get: operations["listScimResourceTypes"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/scim/v2/ResourceTypes/{resourceTypeId}": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The resource type's id, `User` or `Group` (as written); any other answers `404`.
                 * @example User
                 */
                resourceTypeId: components["parameters"]["ScimResourceTypeId"];
            };
            cookie?: never;
        };
        /**
         * One SCIM resource type
         * @description One resource type (RFC 7644 section 4), as in the list. Authenticated with an api key of scope `scim` (`Authorization: Bearer <key>`).
         */
        get: operations["getScimResourceType"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/scim/v2/Schemas": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * SCIM schemas
         * @description The schemas of the resources, with the attributes this service keeps (RFC 7644 section 4). Authenticated with an api key of scope `scim` (`Authorization: Bearer <key>`); the key decides the tenant.
         */
        get: operations["listScimSchemas"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/scim/v2/Schemas/{schemaUrn}": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The schema's URN, `urn:ietf:params:scim:schemas:core:2.0:User` or `...:Group` (case-insensitive, as RFC 7643
                 *     section 2.1 reads schema URIs); any other answers `404`.
                 * @example urn:ietf:params:scim:schemas:core:2.0:User
                 */
                schemaUrn: components["parameters"]["ScimSchemaUrn"];
            };
            cookie?: never;
        };
        /**
         * One SCIM schema
         * @description One schema (RFC 7644 section 4), as in the list: the attributes this service keeps and how. Authenticated with an api key of scope `scim` (`Authorization: Bearer <key>`).
         */
        get: operations["getScimSchema"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/scim/v2/Users": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List SCIM users
         * @description The tenant's users, ordered by id, optionally filtered (`userName eq "anna@demo.test"`). Authenticated with an api key of scope `scim` (`Authorization: Bearer <key>`); the key decides the tenant.
         */
        get: operations["listScimUsers"];
        put?: never;
        /**
         * Create a SCIM user
         * @description Provisions a user in the tenant: `userName` is the email address the user signs in with (by single sign-on,
         *     or with a password after a password reset). A `userName` or `externalId` already in use answers `409` with
         *     `scimType: uniqueness`, also when the address belongs to an account outside this tenant. Authenticated with an api key of scope `scim` (`Authorization: Bearer <key>`); the key decides the tenant.
         */
        post: operations["createScimUser"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/scim/v2/Users/.search": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Search SCIM users
         * @description The list of `GET /Users` with its parameters in the body (RFC 7644 section 3.4.3), so that a filter stays out
         *     of URLs and logs. Answers like the list. Authenticated with an api key of scope `scim`
         *     (`Authorization: Bearer <key>`); the key decides the tenant.
         */
        post: operations["searchScimUsers"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/scim/v2/Users/{scimUserId}": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The user's SCIM id; an id that is not one of this tenant's users answers `404`. */
                scimUserId: components["parameters"]["ScimUserId"];
            };
            cookie?: never;
        };
        /**
         * Get a SCIM user
         * @description One of the tenant's users. Authenticated with an api key of scope `scim` (`Authorization: Bearer <key>`); the key decides the tenant.
         */
        get: operations["getScimUser"];
        /**
         * Replace a SCIM user
         * @description Replaces the user's attributes. Profile attributes (name, title, phone numbers) are changed only for users
         *     who belong to no other tenant; `active` and `externalId` are this tenant's own. `active: false` deactivates
         *     the user in this tenant: calls in it answer `403`, and a user deactivated in every tenant can no longer sign
         *     in and their sessions end. Authenticated with an api key of scope `scim` (`Authorization: Bearer <key>`); the key decides the tenant.
         */
        put: operations["replaceScimUser"];
        post?: never;
        /**
         * Delete a SCIM user
         * @description Removes the user from the tenant (and from its groups); the user's sessions end unless the user belongs to
         *     another tenant. A user who belongs to no tenant any more is deleted. Authenticated with an api key of scope `scim` (`Authorization: Bearer <key>`); the key decides the tenant.
         */
        delete: operations["deleteScimUser"];
        options?: never;
        head?: never;
        /**
         * Patch a SCIM user
         * @description Applies PATCH operations (add, remove, replace in any letter case, with or without `path`; booleans may
         *     come as strings such as `"False"`, as Microsoft Entra ID sends them). The same rules as replace apply. Authenticated with an api key of scope `scim` (`Authorization: Bearer <key>`); the key decides the tenant.
         */
        patch: operations["patchScimUser"];
        trace?: never;
    };
    "/scim/v2/Groups": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List SCIM groups
         * @description The groups the tenant's directory provisioned, ordered by id, optionally filtered
         *     (`displayName eq "Teachers"`); `excludedAttributes=members` leaves the members out. Authenticated with an api key of scope `scim` (`Authorization: Bearer <key>`); the key decides the tenant.
         */
        get: operations["listScimGroups"];
        put?: never;
        /**
         * Create a SCIM group
         * @description Creates a group of the tenant (in its first account) with the given members, who must be users of the
         *     tenant. An `externalId` already in use answers `409`. Authenticated with an api key of scope `scim` (`Authorization: Bearer <key>`); the key decides the tenant.
         */
        post: operations["createScimGroup"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/scim/v2/Groups/.search": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Search SCIM groups
         * @description The list of `GET /Groups` with its parameters in the body (RFC 7644 section 3.4.3), so that a filter stays out
         *     of URLs and logs. Answers like the list. Authenticated with an api key of scope `scim`
         *     (`Authorization: Bearer <key>`); the key decides the tenant.
         */
        post: operations["searchScimGroups"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/scim/v2/Groups/{scimGroupId}": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The group's SCIM id; an id that is not one of this tenant's provisioned groups answers `404`. */
                scimGroupId: components["parameters"]["ScimGroupId"];
            };
            cookie?: never;
        };
        /**
         * Get a SCIM group
         * @description One of the groups the tenant's directory provisioned. Authenticated with an api key of scope `scim` (`Authorization: Bearer <key>`); the key decides the tenant.
         */
        get: operations["getScimGroup"];
        /**
         * Replace a SCIM group
         * @description Replaces the group's name and its members. Authenticated with an api key of scope `scim` (`Authorization: Bearer <key>`); the key decides the tenant.
         */
        put: operations["replaceScimGroup"];
        post?: never;
        /**
         * Delete a SCIM group
         * @description Deletes the group and its memberships. Authenticated with an api key of scope `scim` (`Authorization: Bearer <key>`); the key decides the tenant.
         */
        delete: operations["deleteScimGroup"];
        options?: never;
        head?: never;
        /**
         * Patch a SCIM group
         * @description Renames the group or adds, removes or replaces members (`members` with a list of `{ value }`, or
         *     `members[value eq "42"]` to remove one). Authenticated with an api key of scope `scim` (`Authorization: Bearer <key>`); the key decides the tenant.
         */
        patch: operations["patchScimGroup"];
        trace?: never;
    };
    "/scim/v2/.search": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Search SCIM users and groups
         * @description A search from the root (RFC 7644 section 3.4.3): the tenant's users and groups in one list response, users
         *     first, each with its `meta.resourceType` and projected by its own schema. `filter` takes what either list
         *     takes (`userName`, `emails.value`, `displayName`, `externalId` or `id` with `eq`); an attribute one resource
         *     type does not have matches none of its resources (`userName eq "..."` finds users only), and `displayName`
         *     compares case-insensitively for both. `startIndex` and `count` page through the users, then the groups; at
         *     most 100 resources are returned. Sorting is not supported. Authenticated with an api key of scope `scim`
         *     (`Authorization: Bearer <key>`); the key decides the tenant.
         */
        post: operations["searchScimResources"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/saml/sp": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get the SAML service provider metadata
         * @description Answers this region's SAML 2.0 service provider metadata (entity id, assertion consumer service URL and signing
         *     certificate), for administrators to register the platform at their identity provider. It lives under `/core`,
         *     not `/core/v1`, needs no sign-in and takes neither the version nor the tenant header.
         */
        get: operations["getSamlServiceProviderMetadata"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/saml/acs": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Consume a SAML assertion
         * @description The assertion consumer service: the user's browser posts the identity provider's SAML response here (HTTP-POST
         *     binding) after a `saml` challenge. It lives under `/core`, not `/core/v1`, needs no sign-in and takes neither
         *     the version nor the tenant header.
         *
         *     The SAML response is validated: the signature against the tenant's identity provider certificate, the audience
         *     (this service provider), the conditions (validity window), `InResponseTo` (it must answer an authentication
         *     request this service sent) and replay (each assertion is accepted once). The answer is always a redirect to the
         *     target named by `RelayState`; see the `302` response. A form that does not match the contract answers
         *     `400 BAD_REQUEST`.
         */
        post: operations["consumeSamlAssertion"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export type webhooks = Record<string, never>;
export interface components {
    schemas: {
        /**
         * @description Machine-readable error code. The HTTP status of each code is listed in the API description.
         * @enum {string}
         */
        ErrorCode: "BAD_REQUEST" | "UNAUTHORIZED" | "EXPIRED_ACCESS_TOKEN" | "FORBIDDEN" | "NOT_FOUND" | "METHOD_NOT_ALLOWED" | "PAYLOAD_TOO_LARGE" | "UNSUPPORTED_MEDIA_TYPE" | "TOO_MANY_REQUESTS" | "INTERNAL_SERVER_ERROR" | "NOT_IMPLEMENTED" | "SERVICE_UNAVAILABLE" | "INSUFFICIENT_PRIVILEGES" | "LIMIT_REACHED" | "INVALID_AUTHORIZATION_HEADER" | "INVALID_CREDENTIALS" | "INVALID_SESSION_ID" | "INVALID_REFRESH_TOKEN" | "EXPIRED_REFRESH_TOKEN" | "INVALID_SESSION" | "MFA_TOKEN_EXPIRED" | "MFA_REQUIRED_BUT_NOT_ENABLED" | "INVALID_SSO_CONFIGURATION" | "INVALID_REDIRECT_URI" | "SSO_CHALLENGE_EXPIRED" | "SKOLON_USER_NOT_TEACHER" | "AUTHORIZATION_CODE_NOT_FOUND" | "INVALID_SSO_AUTHORIZATION_CODE" | "INVALID_SSO_ID_TOKEN" | "COALERT_CODE_USAGE_LIMIT_REACHED" | "PERSONAL_ALARM_NOT_FOUND" | "PERSONAL_ALARM_CONFLICT" | "PERSONAL_ALARM_NOT_FOUND_RECIPIENTS" | "USER_PASSWORD_ALREADY_SET" | "USER_PASSWORD_SET_TOKEN_EXPIRED" | "USER_PASSWORD_SET_TOKEN_INVALID" | "CEC_TENANT_CONFIGURATION_INCOMPLETE" | "CEC_MESSAGE_NOT_FOUND" | "CEC_MESSAGE_GROUP_FORBIDDEN" | "PASSKEY_CHALLENGE_EXPIRED" | "PASSKEY_REGISTRATION_FAILED" | "PASSKEY_NOT_REGISTERED" | "REAUTHENTICATION_REQUIRED" | "REQUEST_HEADER_FIELDS_TOO_LARGE";
        /**
         * @description One reason a request was rejected. A body that must take one of several shapes (`oneOf`) answers the issues of
         *     the shape it chose; a body that chose none answers one issue at the body's pointer naming the properties that
         *     choose a shape (or, for an unknown `grantType`, one issue at `/grantType` naming the allowed values).
         */
        ValidationIssue: {
            /**
             * @description The part of the request that failed.
             * @enum {string}
             */
            where: "body" | "query" | "path" | "header";
            /** @description JSON pointer (body) or name (query, path, header) of the value that failed. */
            path: string;
            /** @description What is wrong, in English, for developers. */
            message: string;
            /** @description A stable name of the failed rule, where one exists (for example `PASSWORD_MISSING_DIGIT`). */
            rule?: string;
        };
        /**
         * @description The envelope of every error answer.
         * @example {
         *       "status": "error",
         *       "error": {
         *         "httpStatus": 401,
         *         "code": "INVALID_CREDENTIALS",
         *         "message": "Email or password is incorrect"
         *       }
         *     }
         */
        ErrorResponse: {
            /** @constant */
            status: "error";
            error: {
                httpStatus: number;
                code: components["schemas"]["ErrorCode"];
                /** @description Explanation for developers, in English. User interfaces show their own text for each code. */
                message?: string;
                /** @description Present on `BAD_REQUEST`. */
                issues?: components["schemas"]["ValidationIssue"][];
                /**
                 * Format: date-time
                 * @description On `TOO_MANY_REQUESTS`, the moment the call may be made again.
                 */
                unavailableUntil?: string;
                /**
                 * @description On `TOO_MANY_REQUESTS` of a quota a tenant administrator can lift (external messages): who to ask, the
                 *     tenant's administrators (empty when it has none: then the operator of the service).
                 */
                administrators?: {
                    name: string;
                    email: string;
                }[];
                /** @description Id of the request in the server logs; present on `INTERNAL_SERVER_ERROR`. */
                requestId?: string;
            };
        };
        /**
         * Format: date-time
         * @description An instant in RFC 3339 form, in UTC.
         * @example 2026-11-22T08:00:00.000Z
         */
        Timestamp: string;
        /**
         * @description A coarse description of the device, read from the user agent the sign-in sent: its kind, the browser (or app)
         *     family and the operating system family, without versions. Null fields are not known.
         */
        SessionDevice: {
            /**
             * @description `app` is a client that is no browser (the mobile apps, an integration).
             * @enum {string}
             */
            type: "desktop" | "mobile" | "tablet" | "app" | "unknown";
            /**
             * @example Firefox
             * @example Safari
             * @example Chrome
             * @example Edge
             */
            browser: string | null;
            /**
             * @example Windows
             * @example macOS
             * @example iOS
             * @example Android
             * @example Linux
             */
            os: string | null;
        };
        /**
         * @description One live session of a user in this region (not ended, not expired, every factor proven), as the account page shows
         *     it. Never its tokens, never the full client address: the device is read from the user agent the sign-in sent, the
         *     network is the address's coarse network (IPv4 /24, IPv6 /48). Sessions started before this region recorded them
         *     show `device.type: unknown` and `network: null`.
         * @example {
         *       "id": "0b6f2d4e-8a51-4c55-9a8e-3f3f6a0d2c11",
         *       "createdAt": "2026-11-22T08:00:00.000Z",
         *       "lastUsedAt": "2026-11-29T07:45:12.000Z",
         *       "current": true,
         *       "signedInWith": [
         *         "password",
         *         "otpEmail"
         *       ],
         *       "device": {
         *         "type": "desktop",
         *         "browser": "Firefox",
         *         "os": "Windows"
         *       },
         *       "network": "192.0.2.0/24"
         *     }
         */
        ActiveSession: {
            /** Format: uuid */
            readonly id: string;
            createdAt: components["schemas"]["Timestamp"];
            /**
             * @description When the session last got new tokens (its sign-in, a verified factor or a refresh): an access token lives
             *     minutes, so this is within those minutes of its last use.
             */
            lastUsedAt: components["schemas"]["Timestamp"];
            /** @description True for the session of the access token that asked. */
            current: boolean;
            /** @description How the session signed in, in sign-in order (the factors it proved). */
            signedInWith: ("password" | "otpEmail" | "otpSms" | "passkey" | "coalert" | "oidc" | "saml" | "skolon")[];
            device: components["schemas"]["SessionDevice"];
            /**
             * @description The coarse network of the address the session signed in from, in CIDR form (IPv4 /24, IPv6 /48); null when not
             *     recorded.
             * @example 192.0.2.0/24
             */
            network: string | null;
        };
        /** @description Where a page sits in the whole list. */
        Pagination: {
            /** @description Number of items in the whole list, across all pages. */
            totalCount: number;
            offset: number;
            limit: number;
        };
        /** @description A page of live sessions, the most recently used first (ties by id). */
        ActiveSessionList: {
            data: components["schemas"]["ActiveSession"][];
            pagination: components["schemas"]["Pagination"];
        };
        /**
         * Format: email
         * @description An email address.
         * @example anna@demo.test
         */
        Email: string;
        /** @description Sign in with email and password. */
        PasswordGrant: {
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            grantType: "password";
            email: components["schemas"]["Email"];
            password: string;
        };
        /** @description Sign in with a coAlert code (a shared code with a usage limit). */
        CoAlertCodeGrant: {
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            grantType: "coAlertCode";
            code: string;
        };
        /**
         * @description Start single sign-on at the organisation that owns this email's domain; the session's SSO factor starts
         *     unverified and the session is bound to no user until the identity provider answers (the same for any address at
         *     the domain).
         */
        SsoGrant: {
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            grantType: "sso";
            email: components["schemas"]["Email"];
        };
        /**
         * @description Bytes in base64url (RFC 4648 section 5), without padding, as WebAuthn's JSON forms carry them.
         * @example KEbWNCc7NgaYnUyrNeFGX9_3Y-8oJ3KwzjnaiD1d1LM
         */
        Base64Url: string;
        /**
         * @description WebAuthn `AuthenticationResponseJSON`: what the browser's `PublicKeyCredential.toJSON()` (or
         *     `startAuthentication` of `@simplewebauthn/browser`) gives for request options. Binary values are base64url.
         *     `response.userHandle` is the user handle given at registration (`<region>:<userId>` in UTF-8).
         * @example {
         *       "id": "Ab3dQm6n_XqzVtL0kP9sGw",
         *       "rawId": "Ab3dQm6n_XqzVtL0kP9sGw",
         *       "type": "public-key",
         *       "authenticatorAttachment": "platform",
         *       "clientExtensionResults": {},
         *       "response": {
         *         "clientDataJSON": "eyJ0eXBlIjoid2ViYXV0aG4uZ2V0In0",
         *         "authenticatorData": "SZYN5YgOjGh0NBcPZHZgW4_krrmihjLHmVzzuoMdl2MFAAAAAQ",
         *         "signature": "MEUCIQDq3v0Z5y8QJjXl2b6p0oYf4w1eN9aK7sPqR2cT8dVxUgIgRk",
         *         "userHandle": "ZXUtbm9ydGgtMTo0Mg"
         *       }
         *     }
         */
        PasskeyAuthenticationResponse: {
            /** @description The credential id (base64url). */
            id: string;
            /** @description The credential id again (base64url); must equal `id`. */
            rawId: string;
            /** @constant */
            type: "public-key";
            /** @enum {string} */
            authenticatorAttachment?: "platform" | "cross-platform";
            /** @description The client's extension outputs, as the browser gives them. */
            clientExtensionResults: {
                [key: string]: unknown;
            };
            /** @description The authenticator's assertion response. Members beyond those listed are ignored. */
            response: {
                clientDataJSON: components["schemas"]["Base64Url"];
                authenticatorData: components["schemas"]["Base64Url"];
                signature: components["schemas"]["Base64Url"];
                /** @description The user handle (base64url of at most 64 bytes). */
                userHandle?: string;
            } & {
                [key: string]: unknown;
            };
        };
        /**
         * @description Sign in with a passkey alone (a discoverable credential), answering the options of
         *     `POST /passkeys/authentication-options`. `clientDataJSON.challenge` may be the challenges of several regions
         *     concatenated (see that operation).
         */
        PasskeyGrant: {
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            grantType: "passkey";
            credential: components["schemas"]["PasskeyAuthenticationResponse"];
        };
        /** @description How the session is created, chosen by `grantType`. */
        CreateSessionRequest: components["schemas"]["PasswordGrant"] | components["schemas"]["CoAlertCodeGrant"] | components["schemas"]["SsoGrant"] | components["schemas"]["PasskeyGrant"];
        /**
         * @description Whether a factor of the session has been proven.
         * @enum {string}
         */
        FactorStatus: "verified" | "unverified";
        /**
         * @description The factors of a session; exactly one of these shapes (they exclude each other by their constant values):
         *     password verified, optionally with otpEmail and/or otpSms unverified (a second factor is still to be proven;
         *     then also passkey unverified when the user has a passkey of this region, which may prove it instead of a code);
         *     password verified with otpEmail verified; password verified with otpSms verified; password verified with
         *     passkey verified (a passkey proved the second factor); skolon, oidc or saml, verified or unverified; coalert
         *     verified; passkey verified (a passwordless sign-in with a passkey).
         */
        SessionFactors: {
            /** @constant */
            password: "verified";
            /** @constant */
            otpEmail?: "unverified";
            /** @constant */
            otpSms?: "unverified";
            /** @constant */
            passkey?: "unverified";
        } | {
            /** @constant */
            password: "verified";
            /** @constant */
            otpEmail: "verified";
        } | {
            /** @constant */
            password: "verified";
            /** @constant */
            otpSms: "verified";
        } | {
            /** @constant */
            password: "verified";
            /** @constant */
            passkey: "verified";
        } | {
            skolon: components["schemas"]["FactorStatus"];
        } | {
            oidc: components["schemas"]["FactorStatus"];
        } | {
            saml: components["schemas"]["FactorStatus"];
        } | {
            /** @constant */
            coalert: "verified";
        } | {
            /** @constant */
            passkey: "verified";
        };
        /**
         * @description A sign-in session. `accessToken` is a short-lived JWT for the `Authorization` header; `refreshToken` is opaque,
         *     shown only here, and rotates on every refresh.
         * @example {
         *       "id": "0b6f2d4e-8a51-4c55-9a8e-3f3f6a0d2c11",
         *       "accessToken": "eyJhbGciOiJFUzI1NiIsImtpZCI6ImV1LW5vcnRoLTEtMSJ9.eyJzdWIiOiIxIn0.c2lnbmF0dXJl",
         *       "refreshToken": "rt_Qk3m9sV1yWZ0aJ4pX7bN2cD5eF8gH1iK4lM7nO0pR3s",
         *       "factors": {
         *         "password": "verified",
         *         "otpEmail": "unverified"
         *       }
         *     }
         */
        Session: {
            /** Format: uuid */
            readonly id: string;
            readonly accessToken: string;
            readonly refreshToken: string;
            factors: components["schemas"]["SessionFactors"];
        };
        /**
         * @description How many live sessions this request ended.
         * @example {
         *       "ended": 2
         *     }
         */
        EndedSessions: {
            ended: number;
        };
        /** @description The one-time code that was sent. */
        OtpAnswer: {
            code: string;
        };
        /** @description The result of the identity provider's redirect back, with the PKCE verifier. */
        OidcAnswer: {
            authorizationCode: string;
            codeVerifier: string;
            state: string;
        };
        /** @description The answer to a challenge of the session. */
        VerifyChallengeRequest: {
            otpSms: components["schemas"]["OtpAnswer"];
        } | {
            otpEmail: components["schemas"]["OtpAnswer"];
        } | {
            oidc: components["schemas"]["OidcAnswer"];
        } | {
            passkey: components["schemas"]["PasskeyAuthenticationResponse"];
        } | {
            skolon: components["schemas"]["OidcAnswer"];
        } | {
            saml: {
                /** @description The one-time code the SAML assertion consumer service put in the redirect. */
                code: string;
            };
        };
        /** @description Start an authorization-code flow with PKCE at the tenant's identity provider. */
        OidcChallengeRequest: {
            /** @description BASE64URL(SHA-256(code verifier)), without padding. */
            codeChallenge: string;
            /** @enum {string} */
            codeChallengeMethod: "S256";
            /** Format: uri */
            redirectUri: string;
            state: string;
        };
        /**
         * @description Which factor to challenge: send a one-time code by SMS or email, ask for a passkey's request options, or start
         *     OIDC, SAML or Skolon sign-in.
         */
        CreateChallengeRequest: {
            /** @constant */
            otpSms: true;
        } | {
            /** @constant */
            otpEmail: true;
        } | {
            oidc: components["schemas"]["OidcChallengeRequest"];
        } | {
            saml: {
                /** Format: uri */
                redirectUri: string;
            };
        } | {
            skolon: components["schemas"]["OidcChallengeRequest"];
        } | {
            /** @constant */
            passkey: true;
        };
        /** @description A one-time code was sent. */
        OtpChallengeResult: {
            /** @description The masked address or number the code went to. */
            sentTo: string;
            validUntil: components["schemas"]["Timestamp"];
            resendUnavailableUntil: components["schemas"]["Timestamp"];
        };
        /** @description Where to send the browser to sign in at the identity provider. */
        AuthorizationUrlResult: {
            /** Format: uri */
            authorizationUrl: string;
        };
        /**
         * @description How the browser can reach an authenticator (WebAuthn `AuthenticatorTransport`).
         * @enum {string}
         */
        AuthenticatorTransport: "ble" | "cable" | "hybrid" | "internal" | "nfc" | "smart-card" | "usb";
        /** @description A credential the browser should exclude (registration) or may use (second factor). */
        PublicKeyCredentialDescriptor: {
            id: components["schemas"]["Base64Url"];
            /** @constant */
            type: "public-key";
            transports?: components["schemas"]["AuthenticatorTransport"][];
        };
        /**
         * @description WebAuthn `PublicKeyCredentialRequestOptionsJSON`. The challenge is 32 random bytes, single use, valid 5 minutes.
         *     For a passwordless sign-in (`POST /passkeys/authentication-options`) there is no `allowCredentials`: the browser
         *     offers the user's discoverable credentials, and the answer is the same for everyone. For a second factor
         *     (`POST /sessions/{id}/challenges` with `passkey`) `allowCredentials` lists the session user's passkeys.
         * @example {
         *       "challenge": "KEbWNCc7NgaYnUyrNeFGX9_3Y-8oJ3KwzjnaiD1d1LM",
         *       "timeout": 300000,
         *       "rpId": "login.example.com",
         *       "userVerification": "required"
         *     }
         */
        PasskeyRequestOptions: {
            /** @description 32 random bytes in base64url. */
            challenge: string;
            /** @description Milliseconds the browser should wait for the user (the challenge lives 5 minutes). */
            timeout: number;
            /** @description The relying party id (a domain of the sign-in app, from the region's configuration). */
            rpId: string;
            /** @constant */
            userVerification: "required";
            allowCredentials?: components["schemas"]["PublicKeyCredentialDescriptor"][];
        };
        /** @description The result of a challenge. */
        ChallengeResult: components["schemas"]["OtpChallengeResult"] | components["schemas"]["AuthorizationUrlResult"] | components["schemas"]["PasskeyRequestOptions"];
        /**
         * @description The account's own credential, proven again on the current session: its password, or the assertion of one of its
         *     passkeys for a challenge of `POST /passkeys/authentication-options`.
         */
        ReauthenticationRequest: {
            password: string;
        } | {
            passkey: components["schemas"]["PasskeyAuthenticationResponse"];
        };
        /** @description When the session proved the account's credentials, and until when it may change a factor. */
        Reauthentication: {
            /** Format: date-time */
            provenAt: string;
            /**
             * Format: date-time
             * @description The end of the window (5 minutes) in which the session may add, rename or delete a passkey.
             */
            validUntil: string;
        };
        /**
         * @description One of the signed-in user's passkeys (a WebAuthn discoverable credential of this region). Its public key and
         *     credential id are never shown.
         * @example {
         *       "id": "3f2c7a9e-1b4d-4e6f-8a0b-2c4d6e8f0a1b",
         *       "name": "iCloud Keychain",
         *       "createdAt": "2026-11-22T08:00:00.000Z",
         *       "lastUsedAt": "2026-11-23T07:45:12.000Z",
         *       "authenticator": "iCloud Keychain",
         *       "suspicious": false
         *     }
         */
        Passkey: {
            /** Format: uuid */
            readonly id: string;
            /** @description A label to tell the user's passkeys apart; the authenticator's name (or "Passkey") unless given. */
            name: string;
            readonly createdAt: components["schemas"]["Timestamp"];
            /** @description When the passkey last signed in (alone or as a second factor); null if never. */
            readonly lastUsedAt: components["schemas"]["Timestamp"] | null;
            /**
             * @description The kind of authenticator, from its AAGUID (e.g. "Google Password Manager", "iCloud Keychain"), where this
             *     region knows it; null for an unknown or anonymous (all-zero) AAGUID.
             */
            readonly authenticator: string | null;
            /**
             * @description True once the passkey presented a signature counter that did not go up (a sign of a cloned authenticator):
             *     it is refused from then on; delete it and add it again.
             */
            readonly suspicious: boolean;
        };
        /** @description A page of the signed-in user's passkeys (at most 10 exist). */
        PasskeyList: {
            data: components["schemas"]["Passkey"][];
            pagination: components["schemas"]["Pagination"];
        };
        /**
         * @description WebAuthn `RegistrationResponseJSON`: what the browser's `PublicKeyCredential.toJSON()` (or `startRegistration` of
         *     `@simplewebauthn/browser`) gives for the registration options. Binary values are base64url.
         * @example {
         *       "id": "Ab3dQm6n_XqzVtL0kP9sGw",
         *       "rawId": "Ab3dQm6n_XqzVtL0kP9sGw",
         *       "type": "public-key",
         *       "authenticatorAttachment": "platform",
         *       "clientExtensionResults": {
         *         "credProps": {
         *           "rk": true
         *         }
         *       },
         *       "response": {
         *         "clientDataJSON": "eyJ0eXBlIjoid2ViYXV0aG4uY3JlYXRlIn0",
         *         "attestationObject": "o2NmbXRkbm9uZWdhdHRTdG10oGhhdXRoRGF0YVg",
         *         "transports": [
         *           "internal",
         *           "hybrid"
         *         ]
         *       }
         *     }
         */
        PasskeyRegistrationResponse: {
            /** @description The credential id (base64url). */
            id: string;
            /** @description The credential id again (base64url); must equal `id`. */
            rawId: string;
            /** @constant */
            type: "public-key";
            /** @enum {string} */
            authenticatorAttachment?: "platform" | "cross-platform";
            /** @description The client's extension outputs (`credProps` and others), as the browser gives them. */
            clientExtensionResults: {
                [key: string]: unknown;
            };
            /** @description The authenticator's attestation response. Members beyond those listed are ignored. */
            response: {
                clientDataJSON: components["schemas"]["Base64Url"];
                attestationObject: components["schemas"]["Base64Url"];
                authenticatorData?: components["schemas"]["Base64Url"];
                transports?: components["schemas"]["AuthenticatorTransport"][];
                publicKeyAlgorithm?: number;
                publicKey?: components["schemas"]["Base64Url"];
            } & {
                [key: string]: unknown;
            };
        };
        /** @description The authenticator's answer to the registration options, and an optional name. */
        CreatePasskeyRequest: {
            /**
             * @description A label for the passkey; leading and trailing white space is removed. Without it (or when only white space),
             *     the authenticator's name where known, else "Passkey".
             */
            name?: string;
            credential: components["schemas"]["PasskeyRegistrationResponse"];
        };
        /**
         * @description WebAuthn `PublicKeyCredentialCreationOptionsJSON`: hand it to the browser
         *     (`PublicKeyCredential.parseCreationOptionsFromJSON`, or `startRegistration` of `@simplewebauthn/browser`).
         *     The challenge is 32 random bytes, single use, valid 5 minutes, for the caller's account only. `user.id` is the
         *     user handle: the UTF-8 bytes of `<region>:<userId>` (for example `eu-north-1:42`), which every later
         *     assertion returns, so the sign-in app knows the region of the account without asking. A discoverable credential
         *     (`residentKey: required`) and user verification are required; the user's passkeys are excluded.
         * @example {
         *       "rp": {
         *         "name": "CoSafe",
         *         "id": "login.example.com"
         *       },
         *       "user": {
         *         "id": "ZXUtbm9ydGgtMTo0Mg",
         *         "name": "anna@demo.test",
         *         "displayName": "Anna Andersson"
         *       },
         *       "challenge": "KEbWNCc7NgaYnUyrNeFGX9_3Y-8oJ3KwzjnaiD1d1LM",
         *       "pubKeyCredParams": [
         *         {
         *           "alg": -8,
         *           "type": "public-key"
         *         },
         *         {
         *           "alg": -7,
         *           "type": "public-key"
         *         },
         *         {
         *           "alg": -257,
         *           "type": "public-key"
         *         }
         *       ],
         *       "timeout": 300000,
         *       "excludeCredentials": [],
         *       "authenticatorSelection": {
         *         "residentKey": "required",
         *         "requireResidentKey": true,
         *         "userVerification": "required"
         *       },
         *       "attestation": "none",
         *       "extensions": {
         *         "credProps": true
         *       },
         *       "hints": []
         *     }
         */
        PasskeyRegistrationOptions: {
            rp: {
                name: string;
                /** @description The relying party id (a domain of the sign-in app, from the region's configuration). */
                id: string;
            };
            user: {
                id: components["schemas"]["Base64Url"];
                /** @description The account's email. */
                name: string;
                /** @description The account's name (its email when it has none). */
                displayName: string;
            };
            /** @description 32 random bytes in base64url. */
            challenge: string;
            /** @description The signature algorithms accepted, in order of preference (EdDSA -8, ES256 -7, RS256 -257). */
            pubKeyCredParams: {
                alg: number;
                /** @constant */
                type: "public-key";
            }[];
            /** @description Milliseconds the browser should wait for the user (the challenge lives 5 minutes). */
            timeout: number;
            excludeCredentials: components["schemas"]["PublicKeyCredentialDescriptor"][];
            authenticatorSelection: {
                /** @constant */
                residentKey: "required";
                /** @constant */
                requireResidentKey: true;
                /** @constant */
                userVerification: "required";
                /** @enum {string} */
                authenticatorAttachment?: "platform" | "cross-platform";
            };
            /** @constant */
            attestation: "none";
            /** @description WebAuthn extensions asked for (`credProps`). */
            extensions?: {
                [key: string]: unknown;
            };
            hints?: ("security-key" | "client-device" | "hybrid")[];
        };
        /** @description The token of a passkey's removal link (from the notice of its addition). */
        PasskeyRemovalRequest: {
            token: string;
        };
        /** @description A new name for the passkey. */
        UpdatePasskeyRequest: {
            /** @description Leading and trailing white space is removed; what remains must not be empty. */
            name: string;
        };
        /** @description The password to check against the account with the probed identity hash. */
        ProbeHashRequest: {
            password: string;
        };
        /**
         * @description A data region. `eu-north-1` and `se-sto` are Sweden/Europe; `sa-east-1` is Brazil.
         * @enum {string}
         */
        Region: "eu-north-1" | "se-sto" | "sa-east-1";
        /**
         * @description Whether the probed credentials are valid in this region. `available` is true only when an account with the
         *     identity hash lives in this region and the password matches; an unknown email and a wrong password both answer
         *     false, identically.
         * @example {
         *       "region": "eu-north-1",
         *       "baseUrl": "https://api.eu-north-1.example.com",
         *       "available": true
         *     }
         */
        RegionProbeResult: {
            region: components["schemas"]["Region"];
            /**
             * Format: uri
             * @description The base URL of this region's API, to create the session at.
             */
            baseUrl: string;
            /** @description The credentials are valid in this region. */
            available: boolean;
        };
        /**
         * @description Whether users of a domain sign in with single sign-on in this region, and with which protocol.
         * @example {
         *       "region": "eu-north-1",
         *       "baseUrl": "https://api.eu-north-1.example.com",
         *       "available": true,
         *       "type": "oidc"
         *     }
         */
        IdpDomainProbeResult: {
            region: components["schemas"]["Region"];
            /**
             * Format: uri
             * @description The base URL of this region's API, to create the session at.
             */
            baseUrl: string;
            /** @description This domain signs in with single sign-on in this region. */
            available: boolean;
            /**
             * @description The single sign-on protocol of the domain; null when `available` is false (there is none).
             * @enum {string|null}
             */
            type: "oidc" | "saml" | "skolon" | null;
        };
        /**
         * @description The platform of a device that receives push notifications.
         * @enum {string}
         */
        PushTokenType: "ios" | "android" | "desktop";
        /** @description The device's platform and app version, to register or update its push token. */
        PushTokenRequest: {
            type: components["schemas"]["PushTokenType"];
            /** @description Version of the app installed on the device. */
            appVersion: string;
        };
        /**
         * @description A device push token registered for the signed-in user.
         * @example {
         *       "id": "dQw4w9WgXcQ:APA91bHPRgkF3JUikC4ENAHEeMrd41Zxv3hVZjC9KtT8OvPVGJ",
         *       "type": "android",
         *       "appVersion": "4.12.0",
         *       "updatedAt": "2026-11-22T08:00:00.000Z"
         *     }
         */
        PushToken: {
            /** @description The device's push token. */
            readonly id: string;
            type: components["schemas"]["PushTokenType"];
            /** @description Version of the app installed on the device. */
            appVersion: string;
            /** @description When the registration was last created or updated. */
            readonly updatedAt: components["schemas"]["Timestamp"];
        };
        /**
         * Format: int64
         * @description A positive numeric id.
         * @example 42
         */
        Id: number;
        /**
         * @description An organisation the signed-in user belongs to.
         * @example {
         *       "id": 1,
         *       "name": "Demo Municipality",
         *       "logoUrl": "https://cdn.example.com/tenants/1/logo.png",
         *       "websiteUrl": "https://www.demo.test",
         *       "mayAnyUserActivateImOk": false
         *     }
         */
        Tenant: {
            readonly id: components["schemas"]["Id"];
            name: string;
            /** Format: uri */
            logoUrl: string;
            /** Format: uri */
            websiteUrl: string;
            /** @description Lets users without the Manage I'm OK role start I'm OK requests. */
            mayAnyUserActivateImOk: boolean;
        };
        /** @description A page of tenants. */
        TenantList: {
            data: components["schemas"]["Tenant"][];
            pagination: components["schemas"]["Pagination"];
        };
        /** @description Whose password to reset, by identity hash. */
        RequestPasswordResetRequest: {
            /** @description SHA-256 of the lowercased email, as 64 lowercase hexadecimal digits. */
            emailHash: string;
        };
        /**
         * @description A new password: 10 to 256 characters with a lowercase letter, an uppercase letter, a digit and a special
         *     character (anything but a letter A-Z or a digit). A password that breaks a rule answers `400 BAD_REQUEST`
         *     with one issue per broken rule, with these messages and `rule` names:
         *
         *     | Message | Rule |
         *     |---|---|
         *     | Password must be at least 10 characters | PASSWORD_TOO_SHORT |
         *     | Password must be at most 256 characters | PASSWORD_TOO_LONG |
         *     | Password must contain a lowercase letter | PASSWORD_MISSING_LOWERCASE |
         *     | Password must contain an uppercase letter | PASSWORD_MISSING_UPPERCASE |
         *     | Password must contain a number | PASSWORD_MISSING_DIGIT |
         *     | Password must contain a special character | PASSWORD_MISSING_SPECIAL_CHARACTER |
         *
         *     A password that keeps every rule but is one of the most common passwords (a list shipped with the server:
         *     compared without regard to case, and with the digits and special characters at its start and end left out,
         *     so `Password123!` is refused), or, where the region configures a breach service, one that service knows from
         *     a breach (a k-anonymity range query: only the first 5 hex digits of the password's SHA-1 leave the server),
         *     answers `400 BAD_REQUEST` with one issue at the password's pointer, checked once the rules above pass:
         *
         *     | Message | Rule |
         *     |---|---|
         *     | Password is too common or known from a data breach | PASSWORD_ON_BREACH_LIST |
         */
        NewPassword: string;
        /**
         * @description The account's current password (the proof of the change) and the new one, which must follow the password rules
         *     and may not be the current one.
         */
        ChangePasswordRequest: {
            currentPassword: string;
            newPassword: components["schemas"]["NewPassword"];
        };
        /** @description One image in three sizes. */
        ImageUrls: {
            /** Format: uri */
            small: string;
            /** Format: uri */
            medium: string;
            /** Format: uri */
            large: string;
        };
        /**
         * @description A phone number in international form, `+` then digits only, at most 16 characters.
         * @example +46700000001
         */
        PhoneNumber: string;
        /** @description A user's phone numbers; each is null when not set. */
        UserPhoneNumbers: {
            primary: components["schemas"]["PhoneNumber"] | null;
            secondary: components["schemas"]["PhoneNumber"] | null;
        };
        /**
         * @description A user's profile.
         * @example {
         *       "id": 42,
         *       "name": "Anna Andersson",
         *       "title": "Safety coordinator",
         *       "imageUrls": {
         *         "small": "https://cdn.example.com/users/42/small.jpg",
         *         "medium": "https://cdn.example.com/users/42/medium.jpg",
         *         "large": "https://cdn.example.com/users/42/large.jpg"
         *       },
         *       "email": "anna@demo.test",
         *       "phoneNumbers": {
         *         "primary": "+46700000001",
         *         "secondary": null
         *       },
         *       "lastAccessAt": "2026-11-22T08:00:00.000Z",
         *       "unavailableUntil": null
         *     }
         */
        User: {
            readonly id: components["schemas"]["Id"];
            name: string;
            /** @description The user's job title; null when none is set. */
            title: string | null;
            imageUrls: components["schemas"]["ImageUrls"];
            email: components["schemas"]["Email"];
            phoneNumbers: components["schemas"]["UserPhoneNumbers"];
            /** @description When the user last used the platform. */
            readonly lastAccessAt: components["schemas"]["Timestamp"];
            /** @description Until when the user is away (for example on leave); null when the user is available. */
            unavailableUntil: components["schemas"]["Timestamp"] | null;
        };
        /** @description Changes to the user's profile. Only the secondary phone number and `unavailableUntil` may change; null clears them. */
        UpdateUserRequest: {
            phoneNumbers?: {
                /** @description The new secondary phone number, or null to remove it. */
                secondary: components["schemas"]["PhoneNumber"] | null;
            };
            /** @description Until when the user is away, or null to mark the user available. */
            unavailableUntil?: components["schemas"]["Timestamp"] | null;
        };
        /**
         * @description A supported interface language.
         * @enum {string}
         */
        Language: "sv" | "en" | "es" | "fi" | "nl" | "pt";
        /**
         * @description A user's preferences.
         * @example {
         *       "receiveEmails": true,
         *       "notifications": {
         *         "checklists": true,
         *         "documents": false
         *       },
         *       "preferredLanguage": "sv"
         *     }
         */
        UserSettings: {
            /** @description The user receives emails from the platform. */
            receiveEmails: boolean;
            /** @description Which push notifications the user receives. */
            notifications: {
                checklists: boolean;
                documents: boolean;
            };
            /** @description The user's interface language; null when none is chosen (the interface detects one, falling back to English). */
            preferredLanguage: components["schemas"]["Language"] | null;
        };
        /** @description Changes to a user's preferences; absent properties keep their value. */
        UpdateUserSettingsRequest: {
            receiveEmails?: boolean;
            notifications?: {
                checklists?: boolean;
                documents?: boolean;
            };
            /** @description The interface language, or null to clear the choice. */
            preferredLanguage?: components["schemas"]["Language"] | null;
        };
        /** @description The position of the area when areas are listed, ascending; null when the area has no set position. */
        PermissionDisplayOrder: number | null;
        /** @description The user's may-flags in the area `alarms`, and the area's display order. */
        PermissionsAlarms: {
            mayActivate: boolean;
            mayDeactivate: boolean;
            displayOrder: components["schemas"]["PermissionDisplayOrder"];
        };
        /** @description The user's may-flags in the area `broadcast` (broadcasts), and the area's display order. */
        PermissionsBroadcast: {
            maySend: boolean;
            displayOrder: components["schemas"]["PermissionDisplayOrder"];
        };
        /** @description The user's may-flags in the area `checklists` (checklists, their templates and tasks), and the area's display order. */
        PermissionsChecklists: {
            mayUse: boolean;
            mayCreateTemplate: boolean;
            mayAddTask: boolean;
            mayEditAccess: boolean;
            mayRename: boolean;
            mayActivate: boolean;
            mayDeactivate: boolean;
            mayReactivate: boolean;
            displayOrder: components["schemas"]["PermissionDisplayOrder"];
        };
        /** @description The user's may-flags in the area `cec` (external communication by email, SMS and voice), and the area's display order. */
        PermissionsCec: {
            maySend: boolean;
            displayOrder: components["schemas"]["PermissionDisplayOrder"];
        };
        /** @description The user's may-flags in the area `documents`, and the area's display order. */
        PermissionsDocuments: {
            mayRead: boolean;
            mayAdd: boolean;
            mayManageOffline: boolean;
            mayEditAccess: boolean;
            mayRename: boolean;
            mayDelete: boolean;
            displayOrder: components["schemas"]["PermissionDisplayOrder"];
        };
        /** @description The user's may-flags in the area `groups`, and the area's display order. */
        PermissionsGroups: {
            mayInteractWithOwn: boolean;
            mayInteractWithAll: boolean;
            displayOrder: components["schemas"]["PermissionDisplayOrder"];
        };
        /** @description The user's may-flags in the area `holdingStatement` (holding statements), and the area's display order. */
        PermissionsHoldingStatement: {
            mayCreate: boolean;
            displayOrder: components["schemas"]["PermissionDisplayOrder"];
        };
        /** @description The user's may-flags in the area `imOk` (I'm OK requests), and the area's display order. */
        PermissionsImOk: {
            mayReceive: boolean;
            mayActivate: boolean;
            mayDeactivate: boolean;
            mayMessage: boolean;
            mayEdit: boolean;
            mayDelete: boolean;
            displayOrder: components["schemas"]["PermissionDisplayOrder"];
        };
        /** @description The user's may-flags in the area `onCallAlert` (on-call alerts), and the area's display order. */
        PermissionsOnCallAlert: {
            mayReceive: boolean;
            mayActivate: boolean;
            mayDeactivate: boolean;
            mayMessage: boolean;
            mayEdit: boolean;
            mayDelete: boolean;
            displayOrder: components["schemas"]["PermissionDisplayOrder"];
        };
        /** @description The user's may-flags in the area `loneWorkerTimer` (the lone worker timer, or personal alarm), and the area's display order. */
        PermissionsLoneWorkerTimer: {
            mayActivate: boolean;
            displayOrder: components["schemas"]["PermissionDisplayOrder"];
        };
        /** @description The user's may-flags in the area `logNotes` (log notes), and the area's display order. */
        PermissionsLogNotes: {
            mayCreate: boolean;
            displayOrder: components["schemas"]["PermissionDisplayOrder"];
        };
        /** @description The user's may-flags in the area `meetingRoom` (meeting rooms), and the area's display order. */
        PermissionsMeetingRoom: {
            mayJoin: boolean;
            displayOrder: components["schemas"]["PermissionDisplayOrder"];
        };
        /** @description The user's may-flags in the area `messages`, and the area's display order. */
        PermissionsMessages: {
            mayCreate: boolean;
            mayAddRecipients: boolean;
            mayBlock: boolean;
            mayDelete: boolean;
            displayOrder: components["schemas"]["PermissionDisplayOrder"];
        };
        /** @description The user's may-flags in the area `news`, and the area's display order. */
        PermissionsNews: {
            mayRead: boolean;
            displayOrder: components["schemas"]["PermissionDisplayOrder"];
        };
        /** @description The user's may-flags in the area `panicButton` (the panic button), and the area's display order. */
        PermissionsPanicButton: {
            mayActivate: boolean;
            displayOrder: components["schemas"]["PermissionDisplayOrder"];
        };
        /** @description The user's may-flags in the area `www`, and the area's display order. */
        PermissionsWww: {
            maySee: boolean;
            displayOrder: components["schemas"]["PermissionDisplayOrder"];
        };
        /**
         * @description What the user may do in the tenant, one object per area: the area's may-flags and its display order.
         * @example {
         *       "alarms": {
         *         "mayActivate": true,
         *         "mayDeactivate": false,
         *         "displayOrder": 1
         *       },
         *       "broadcast": {
         *         "maySend": true,
         *         "displayOrder": 2
         *       },
         *       "checklists": {
         *         "mayUse": true,
         *         "mayCreateTemplate": false,
         *         "mayAddTask": false,
         *         "mayEditAccess": false,
         *         "mayRename": false,
         *         "mayActivate": false,
         *         "mayDeactivate": false,
         *         "mayReactivate": false,
         *         "displayOrder": 3
         *       },
         *       "cec": {
         *         "maySend": true,
         *         "displayOrder": 4
         *       },
         *       "documents": {
         *         "mayRead": true,
         *         "mayAdd": false,
         *         "mayManageOffline": false,
         *         "mayEditAccess": false,
         *         "mayRename": false,
         *         "mayDelete": false,
         *         "displayOrder": 5
         *       },
         *       "groups": {
         *         "mayInteractWithOwn": true,
         *         "mayInteractWithAll": false,
         *         "displayOrder": 6
         *       },
         *       "holdingStatement": {
         *         "mayCreate": true,
         *         "displayOrder": 7
         *       },
         *       "imOk": {
         *         "mayReceive": true,
         *         "mayActivate": false,
         *         "mayDeactivate": false,
         *         "mayMessage": false,
         *         "mayEdit": false,
         *         "mayDelete": false,
         *         "displayOrder": 8
         *       },
         *       "onCallAlert": {
         *         "mayReceive": true,
         *         "mayActivate": false,
         *         "mayDeactivate": false,
         *         "mayMessage": false,
         *         "mayEdit": false,
         *         "mayDelete": false,
         *         "displayOrder": null
         *       },
         *       "loneWorkerTimer": {
         *         "mayActivate": true,
         *         "displayOrder": 10
         *       },
         *       "logNotes": {
         *         "mayCreate": true,
         *         "displayOrder": 11
         *       },
         *       "meetingRoom": {
         *         "mayJoin": true,
         *         "displayOrder": 12
         *       },
         *       "messages": {
         *         "mayCreate": true,
         *         "mayAddRecipients": false,
         *         "mayBlock": false,
         *         "mayDelete": false,
         *         "displayOrder": 13
         *       },
         *       "news": {
         *         "mayRead": true,
         *         "displayOrder": 14
         *       },
         *       "panicButton": {
         *         "mayActivate": true,
         *         "displayOrder": 15
         *       },
         *       "www": {
         *         "maySee": true,
         *         "displayOrder": null
         *       }
         *     }
         */
        UserPermissions: {
            alarms: components["schemas"]["PermissionsAlarms"];
            broadcast: components["schemas"]["PermissionsBroadcast"];
            checklists: components["schemas"]["PermissionsChecklists"];
            cec: components["schemas"]["PermissionsCec"];
            documents: components["schemas"]["PermissionsDocuments"];
            groups: components["schemas"]["PermissionsGroups"];
            holdingStatement: components["schemas"]["PermissionsHoldingStatement"];
            imOk: components["schemas"]["PermissionsImOk"];
            onCallAlert: components["schemas"]["PermissionsOnCallAlert"];
            loneWorkerTimer: components["schemas"]["PermissionsLoneWorkerTimer"];
            logNotes: components["schemas"]["PermissionsLogNotes"];
            meetingRoom: components["schemas"]["PermissionsMeetingRoom"];
            messages: components["schemas"]["PermissionsMessages"];
            news: components["schemas"]["PermissionsNews"];
            panicButton: components["schemas"]["PermissionsPanicButton"];
            www: components["schemas"]["PermissionsWww"];
        };
        /**
         * @description The state of a password set or reset token: `valid` (may be used), `expired` (too old), `invalid` (unknown, or not
         *     this user's) or `used` (already used once).
         * @example {
         *       "state": "valid"
         *     }
         */
        PasswordTokenState: {
            /** @enum {string} */
            state: "valid" | "expired" | "invalid" | "used";
        };
        /** @description The first password of an invited user, with the token from the invitation link. */
        SetPasswordRequest: {
            /** @description The token from the invitation link. */
            token: string;
            password: components["schemas"]["NewPassword"];
        };
        /** @description A new password, with the token from the password reset link. */
        ResetPasswordRequest: {
            /** @description The token from the password reset link. */
            token: string;
            newPassword: components["schemas"]["NewPassword"];
        };
        /**
         * @description The kind of group: `default` (an ordinary group), `hidden` (visible only to its members and to admins),
         *     `crossOrg` (spans several organisations) or `coAlert` (joined with a coAlert code).
         * @enum {string}
         */
        GroupType: "default" | "hidden" | "crossOrg" | "coAlert";
        /**
         * @description The account (organisation) a group belongs to, and that account's tenant.
         * @example {
         *       "id": 3,
         *       "name": "Demo Municipality",
         *       "tenantId": 1
         *     }
         */
        GroupAccount: {
            id: components["schemas"]["Id"];
            name: string;
            tenantId: components["schemas"]["Id"];
        };
        /**
         * @description A group of users, with its type, size, owning account and image.
         * @example {
         *       "id": 12,
         *       "name": "Crisis team",
         *       "type": "default",
         *       "membersCount": 8,
         *       "account": {
         *         "id": 3,
         *         "name": "Demo Municipality",
         *         "tenantId": 1
         *       },
         *       "imageUrls": null
         *     }
         */
        Group: {
            readonly id: components["schemas"]["Id"];
            name: string;
            type: components["schemas"]["GroupType"];
            /** @description Number of members of the group. */
            readonly membersCount: number;
            account: components["schemas"]["GroupAccount"];
            /** @description The group's image in three sizes; `null` when the group has no image. */
            imageUrls: components["schemas"]["ImageUrls"] | null;
        };
        /** @description A page of groups. */
        GroupList: {
            data: components["schemas"]["Group"][];
            pagination: components["schemas"]["Pagination"];
        };
        /**
         * @description A member of a group: the user's fields (as in `User`) plus `isAdmin`, whether the user administers this group.
         * @example {
         *       "id": 7,
         *       "name": "Anna Andersson",
         *       "title": "Safety officer",
         *       "imageUrls": {
         *         "small": "https://cdn.demo.test/users/7/small.png",
         *         "medium": "https://cdn.demo.test/users/7/medium.png",
         *         "large": "https://cdn.demo.test/users/7/large.png"
         *       },
         *       "email": "anna@demo.test",
         *       "phoneNumbers": {
         *         "primary": "+46700000001",
         *         "secondary": null
         *       },
         *       "lastAccessAt": "2026-11-22T08:00:00.000Z",
         *       "unavailableUntil": null,
         *       "isAdmin": true
         *     }
         */
        GroupMember: {
            readonly id: components["schemas"]["Id"];
            name: string;
            /** @description The user's job title; `null` when the user has none. */
            title: string | null;
            imageUrls: components["schemas"]["ImageUrls"];
            email: components["schemas"]["Email"];
            phoneNumbers: components["schemas"]["UserPhoneNumbers"];
            /** @description When the user last used the platform. */
            readonly lastAccessAt: components["schemas"]["Timestamp"];
            /** @description Until when the user has said they are unavailable; `null` when they are available. */
            unavailableUntil: components["schemas"]["Timestamp"] | null;
            /** @description Whether the user is an admin of this group. */
            isAdmin: boolean;
        };
        /** @description A page of group members. */
        GroupMemberList: {
            data: components["schemas"]["GroupMember"][];
            pagination: components["schemas"]["Pagination"];
        };
        /**
         * @description A video meeting room of the tenant.
         * @example {
         *       "id": 5,
         *       "name": "Crisis room",
         *       "url": "https://meet.demo.test/crisis-room",
         *       "description": "Standing room for the crisis team.",
         *       "isActive": true
         *     }
         */
        MeetingRoom: {
            readonly id: components["schemas"]["Id"];
            name: string;
            /**
             * Format: uri
             * @description Where to join the meeting.
             */
            url: string;
            /** @description Free text about the room; empty when there is none. */
            description: string;
            /** @description Whether the room can be used. */
            isActive: boolean;
        };
        /** @description A page of meeting rooms. */
        MeetingRoomList: {
            data: components["schemas"]["MeetingRoom"][];
            pagination: components["schemas"]["Pagination"];
        };
        /**
         * @description A machine-to-machine api key of the tenant, for SCIM provisioning (scope `scim`). The key value itself is
         *     never listed; it is shown only once, in the answer that creates it (`CreatedApiKey`).
         * @example {
         *       "apiKeyId": "6f1c2a3b-4d5e-4f60-8a7b-9c0d1e2f3a4b",
         *       "name": "Azure AD provisioning",
         *       "scope": "scim",
         *       "createdAt": "2026-11-22T08:00:00.000Z"
         *     }
         */
        ApiKey: {
            /** Format: uuid */
            readonly apiKeyId: string;
            /** @description A label to tell keys apart. */
            name: string;
            /** @constant */
            readonly scope: "scim";
            readonly createdAt: components["schemas"]["Timestamp"];
        };
        /** @description A page of the tenant's api keys (without their key values). */
        ApiKeyList: {
            data: components["schemas"]["ApiKey"][];
            pagination: components["schemas"]["Pagination"];
        };
        /** @description A new api key; its id, scope (`scim`) and key value are assigned by the server. */
        CreateApiKeyRequest: {
            /** @description A label to tell keys apart. */
            name: string;
        };
        /**
         * @description A newly created api key: the `ApiKey` fields plus `key`, the secret. The secret is shown only in this answer;
         *     the server keeps only a hash of it, so it cannot be shown again.
         * @example {
         *       "apiKeyId": "6f1c2a3b-4d5e-4f60-8a7b-9c0d1e2f3a4b",
         *       "name": "Azure AD provisioning",
         *       "scope": "scim",
         *       "createdAt": "2026-11-22T08:00:00.000Z",
         *       "key": "csk_q8ZrVb3mKx0T1nYwPc7sLd5Gh2Ja9EfU4oRiN6tXyAk"
         *     }
         */
        CreatedApiKey: {
            /** Format: uuid */
            readonly apiKeyId: string;
            /** @description A label to tell keys apart. */
            name: string;
            /** @constant */
            readonly scope: "scim";
            readonly createdAt: components["schemas"]["Timestamp"];
            /**
             * @description The secret, for `Authorization: Bearer <key>` on the SCIM endpoints: the prefix `csk_` followed by at least
             *     256 random bits in base64url (43 characters or more). Shown only here.
             */
            readonly key: string;
        };
        /**
         * @description What a contact is for, user support or the data protection officer.
         * @enum {string}
         */
        ContactType: "UserSupport" | "DataProtectionOfficer";
        /**
         * @description A support or data-protection contact of an account.
         * @example {
         *       "id": 21,
         *       "accountId": 3,
         *       "name": "Maria Svensson",
         *       "title": "Data protection officer",
         *       "email": "dpo@demo.test",
         *       "phoneNumber": "+46700000002",
         *       "type": "DataProtectionOfficer"
         *     }
         */
        Contact: {
            readonly id: components["schemas"]["Id"];
            /** @description The account the contact belongs to; fixed at creation. */
            accountId: components["schemas"]["Id"];
            name: string;
            /** @description The contact's job title; may be empty. */
            title: string;
            email: components["schemas"]["Email"];
            phoneNumber: components["schemas"]["PhoneNumber"];
            type: components["schemas"]["ContactType"];
        };
        /** @description A page of contacts. */
        ContactList: {
            data: components["schemas"]["Contact"][];
            pagination: components["schemas"]["Pagination"];
        };
        /** @description A new contact of an account. */
        CreateContactRequest: {
            /** @description The account the contact belongs to; it must be an account of the tenant. */
            accountId: components["schemas"]["Id"];
            name: string;
            /** @description The contact's job title; may be empty. */
            title: string;
            email: components["schemas"]["Email"];
            phoneNumber: components["schemas"]["PhoneNumber"];
            type: components["schemas"]["ContactType"];
        };
        /** @description The contact fields to change; at least one. The account of a contact cannot be changed. */
        UpdateContactRequest: {
            name?: string;
            /** @description The contact's job title; may be empty. */
            title?: string;
            email?: components["schemas"]["Email"];
            phoneNumber?: components["schemas"]["PhoneNumber"];
            type?: components["schemas"]["ContactType"];
        };
        /**
         * @description An external communication group of the tenant (people outside the organisation, reached by email and SMS).
         * @example {
         *       "id": 31,
         *       "name": "Parents class 3B",
         *       "memberCount": 24
         *     }
         */
        CecGroup: {
            readonly id: components["schemas"]["Id"];
            name: string;
            /** @description Number of recipients in the group. */
            memberCount: number;
        };
        /** @description A page of external communication groups. */
        CecGroupList: {
            data: components["schemas"]["CecGroup"][];
            pagination: components["schemas"]["Pagination"];
        };
        /**
         * @description A ready-made text for external communication messages.
         * @example {
         *       "id": 5,
         *       "name": "Building closed",
         *       "content": "The building is closed today because of a technical fault. Please stay at home until further notice."
         *     }
         */
        CecTemplate: {
            readonly id: components["schemas"]["Id"];
            name: string;
            /** @description The message text the template fills in. */
            content: string;
        };
        /** @description A page of external communication templates. */
        CecTemplateList: {
            data: components["schemas"]["CecTemplate"][];
            pagination: components["schemas"]["Pagination"];
        };
        /**
         * @description The channels an external communication message goes by. When sending, at least one of `isEmail` and `isSms`
         *     must be true (checked by the server, answered as `400 BAD_REQUEST`).
         */
        CecChannel: {
            /** @description Sent by email to recipients with an email address. */
            isEmail: boolean;
            /** @description Sent by SMS to recipients with a phone number. */
            isSms: boolean;
        };
        /**
         * @description A message sent to external communication groups.
         * @example {
         *       "id": 812,
         *       "content": "Water supply is interrupted in building B until 14:00. Please confirm that you have read this.",
         *       "channel": {
         *         "isEmail": true,
         *         "isSms": true
         *       },
         *       "hasVoiceCall": false,
         *       "hasConfirmationLink": true,
         *       "sender": {
         *         "name": "Anna Andersson"
         *       },
         *       "sentAt": "2026-11-22T08:00:00.000Z",
         *       "externalCommunicationGroups": [
         *         {
         *           "id": 31,
         *           "name": "Parents class 3B"
         *         }
         *       ]
         *     }
         */
        CecMessage: {
            readonly id: components["schemas"]["Id"];
            /** @description The message text. */
            content: string;
            channel: components["schemas"]["CecChannel"];
            /** @description The text is also read out in a voice call to the recipients' phone numbers. */
            hasVoiceCall: boolean;
            /** @description The message carries a link the recipient follows to confirm reading it. */
            hasConfirmationLink: boolean;
            /** @description The user who sent the message. */
            sender: {
                /** @description The sender's name; null when the sending user has since been deleted. */
                name: string | null;
            };
            readonly sentAt: components["schemas"]["Timestamp"];
            /** @description The groups the message was sent to. */
            externalCommunicationGroups: {
                id: components["schemas"]["Id"];
                name: string;
            }[];
        };
        /** @description A page of external communication messages, newest first. */
        CecMessageList: {
            data: components["schemas"]["CecMessage"][];
            pagination: components["schemas"]["Pagination"];
        };
        /**
         * @description A message to send to external communication groups. Besides this schema, at least one of `channel.isEmail` and
         *     `channel.isSms` must be true, else `400 BAD_REQUEST` with the message
         *     'At least one of 'isEmail' or 'isSms' must be true'.
         * @example {
         *       "externalCommunicationGroupIds": [
         *         31
         *       ],
         *       "text": "Water supply is interrupted in building B until 14:00. Please confirm that you have read this.",
         *       "channel": {
         *         "isEmail": true,
         *         "isSms": true
         *       },
         *       "includeVoiceCall": false,
         *       "includeConfirmationLink": true
         *     }
         */
        SendCecMessageRequest: {
            /** @description The groups to send to; each must be a group of the tenant the caller may send to. */
            externalCommunicationGroupIds: components["schemas"]["Id"][];
            /** @description The message text; it must contain at least one visible character (not only spaces, zero-width or other format characters, private-use or unassigned code points, combining marks or blank symbols). */
            text: string;
            channel: components["schemas"]["CecChannel"];
            /**
             * @description Also read the text out in a voice call to the recipients' phone numbers.
             * @default false
             */
            includeVoiceCall: boolean;
            /**
             * @description Add a link the recipients follow to confirm reading the message.
             * @default false
             */
            includeConfirmationLink: boolean;
        };
        /**
         * @description Delivery of a message to one recipient by one channel.
         * @example {
         *       "sentTo": "erik.svensson@example.com",
         *       "status": "sent",
         *       "readAt": "2026-11-22T08:12:31.000Z"
         *     }
         */
        CecDispatch: {
            /** @description The email address or phone number the message was sent to. */
            sentTo: string;
            /**
             * @description Where the delivery stands: `queued` until the channel has accepted it (also while it is retried after a
             *     channel failure), `sent` once accepted, `failed` when every attempt failed.
             * @enum {string}
             */
            status: "queued" | "sent" | "failed";
            /**
             * @description When the recipient confirmed the message through the confirmation link; null until then (and always null
             *     when the message has no confirmation link).
             */
            readAt: components["schemas"]["Timestamp"] | null;
        };
        /**
         * @description One recipient of an external communication message and how the message reached them.
         * @example {
         *       "id": 1204,
         *       "name": "Erik Svensson",
         *       "title": null,
         *       "dispatches": {
         *         "byEmail": {
         *           "sentTo": "erik.svensson@example.com",
         *           "status": "sent",
         *           "readAt": "2026-11-22T08:12:31.000Z"
         *         },
         *         "bySms": {
         *           "sentTo": "+46700000002",
         *           "status": "sent",
         *           "readAt": null
         *         }
         *       },
         *       "externalCommunicationGroupIds": [
         *         31
         *       ]
         *     }
         */
        CecRecipient: {
            readonly id: components["schemas"]["Id"];
            name: string;
            /** @description The recipient's title; null when none is recorded. */
            title: string | null;
            /** @description The deliveries by channel. */
            dispatches: {
                /** @description The delivery by email; null when the message was not sent to this recipient by email. */
                byEmail: components["schemas"]["CecDispatch"] | null;
                /** @description The delivery by SMS; null when the message was not sent to this recipient by SMS. */
                bySms: components["schemas"]["CecDispatch"] | null;
            };
            /** @description The groups of the message this recipient belongs to. */
            externalCommunicationGroupIds: components["schemas"]["Id"][];
        };
        /** @description A page of the recipients of an external communication message. */
        CecRecipientList: {
            data: components["schemas"]["CecRecipient"][];
            pagination: components["schemas"]["Pagination"];
        };
        /** @description Why the ceiling is lifted (kept with the record of the lift). */
        LiftCecCeilingRequest: {
            reason: string;
        };
        /** @description A lift of the tenant's ceiling of external messages, as recorded. */
        CecCeilingLift: {
            readonly id: components["schemas"]["Id"];
            /** @description Who lifted it (the administrator's name and email, or the operator tool). */
            liftedBy: string;
            reason: string | null;
            /** Format: date-time */
            createdTime: string;
            /**
             * Format: date-time
             * @description Until then no quota refuses an external message of the tenant.
             */
            liftedUntil: string;
        };
        /**
         * @description A personal alarm (lone-worker timer): unless it is deactivated before `dispatchTime`, an alarm message goes to
         *     its recipients at that time.
         * @example {
         *       "id": 501,
         *       "text": "Home visit at Storgatan 12. Call me if I have not checked in.",
         *       "dispatchTime": "2026-11-22T09:30:00.000Z",
         *       "createdTime": "2026-11-22T08:30:00.000Z",
         *       "active": true,
         *       "userId": 42,
         *       "locationId": 77,
         *       "messageId": null,
         *       "deviceId": "device-7f3c9a2e",
         *       "oneMinuteWarning": true
         *     }
         */
        PersonalAlarm: {
            readonly id: components["schemas"]["Id"];
            /** @description The alarm text sent to the recipients. */
            text: string;
            /** @description When the alarm is dispatched unless deactivated before. */
            dispatchTime: components["schemas"]["Timestamp"];
            readonly createdTime: components["schemas"]["Timestamp"];
            /** @description Whether the timer runs; a deactivated alarm is not dispatched. */
            active: boolean;
            /** @description The user the alarm is for (the sender). */
            userId: components["schemas"]["Id"];
            /** @description The stored location of the sender; null when no location was given. */
            locationId: components["schemas"]["Id"] | null;
            /** @description The alarm message once the alarm has been dispatched; null before. */
            messageId: components["schemas"]["Id"] | null;
            /** @description The sender's device the alarm was started on. */
            deviceId: string;
            /** @description The sender is warned one minute before the alarm is dispatched. */
            oneMinuteWarning: boolean;
        };
        /** @description A page of personal alarms. */
        PersonalAlarmList: {
            data: components["schemas"]["PersonalAlarm"][];
            pagination: components["schemas"]["Pagination"];
        };
        /**
         * @description Where the sender is, in decimal degrees; both values are non-negative.
         * @example {
         *       "latitude": 59.3293,
         *       "longitude": 18.0686
         *     }
         */
        PersonalAlarmLocation: {
            latitude: number;
            longitude: number;
        };
        /**
         * @description A new personal alarm. Recipients are the users in `recipientUserIds` plus the members of the groups in
         *     `groupIds`; ids that are not users or groups of the tenant are left out, and if no recipient remains the
         *     request answers `400 PERSONAL_ALARM_NOT_FOUND_RECIPIENTS`.
         * @example {
         *       "sender": {
         *         "userId": 42,
         *         "deviceId": "device-7f3c9a2e"
         *       },
         *       "dispatchAt": "2026-11-22T09:30:00.000Z",
         *       "location": {
         *         "latitude": 59.3293,
         *         "longitude": 18.0686
         *       },
         *       "active": true,
         *       "text": "Home visit at Storgatan 12. Call me if I have not checked in.",
         *       "oneMinuteWarning": true,
         *       "recipientUserIds": [
         *         7,
         *         9
         *       ],
         *       "groupIds": [
         *         12
         *       ]
         *     }
         */
        CreatePersonalAlarmRequest: {
            /** @description Who the alarm is for and the device it runs on. */
            sender: {
                userId: components["schemas"]["Id"];
                deviceId: string;
            };
            /** @description When the alarm is dispatched unless deactivated before. */
            dispatchAt: components["schemas"]["Timestamp"];
            /** @description Where the sender is; optional. */
            location?: components["schemas"]["PersonalAlarmLocation"];
            /** @description Start the timer at once (true) or create the alarm inactive, to activate later (false). */
            active: boolean;
            /** @description The alarm text sent to the recipients; it must contain at least one visible character (not only spaces, zero-width or other format characters, private-use or unassigned code points, combining marks or blank symbols). */
            text: string;
            /** @description Warn the sender one minute before the alarm is dispatched. */
            oneMinuteWarning: boolean;
            /** @description Users who receive the alarm. */
            recipientUserIds: components["schemas"]["Id"][];
            /** @description Groups whose members receive the alarm. */
            groupIds: components["schemas"]["Id"][];
        };
        /**
         * @description Changes to a personal alarm, for example to extend or change the timer. Only the given properties change;
         *     `recipientUserIds` and `groupIds`, when given, replace the previous lists (if no recipient remains the request
         *     answers `400 PERSONAL_ALARM_NOT_FOUND_RECIPIENTS`); `location`, when given, replaces the stored location.
         * @example {
         *       "dispatchAt": "2026-11-22T10:00:00.000Z"
         *     }
         */
        UpdatePersonalAlarmRequest: {
            /** @description The new moment the alarm is dispatched unless deactivated before. */
            dispatchAt?: components["schemas"]["Timestamp"];
            /** @description The alarm text sent to the recipients; it must contain at least one visible character (not only spaces, zero-width or other format characters, private-use or unassigned code points, combining marks or blank symbols). */
            text?: string;
            /** @description Where the sender is now. */
            location?: components["schemas"]["PersonalAlarmLocation"];
            /** @description Warn the sender one minute before the alarm is dispatched. */
            oneMinuteWarning?: boolean;
            /** @description Users who receive the alarm. */
            recipientUserIds?: components["schemas"]["Id"][];
            /** @description Groups whose members receive the alarm. */
            groupIds?: components["schemas"]["Id"][];
        };
        /**
         * @description The tenant's OpenID Connect single sign-on settings as stored. The client secret is never returned.
         * @example {
         *       "clientId": "core-api-demo",
         *       "authorizationEndpoint": "https://idp.demo.test/oauth2/authorize",
         *       "tokenEndpoint": "https://idp.demo.test/oauth2/token",
         *       "jwksUri": "https://idp.demo.test/oauth2/keys",
         *       "issuer": "https://idp.demo.test",
         *       "createdAt": "2026-11-01T08:00:00.000Z",
         *       "updatedAt": "2026-11-22T08:00:00.000Z"
         *     }
         */
        OidcSettings: {
            /** @description The client id registered at the identity provider. */
            clientId: string;
            /** Format: uri */
            authorizationEndpoint: string;
            /** Format: uri */
            tokenEndpoint: string;
            /** Format: uri */
            jwksUri: string;
            /** Format: uri */
            issuer: string;
            readonly createdAt: components["schemas"]["Timestamp"];
            readonly updatedAt: components["schemas"]["Timestamp"];
        };
        /**
         * @description The tenant's OpenID Connect single sign-on settings, replacing any existing ones. `clientSecret` is stored
         *     encrypted and is never returned.
         */
        OidcSettingsInput: {
            /** @description The client id registered at the identity provider. */
            clientId: string;
            /** @description The client secret registered at the identity provider; write-only. */
            clientSecret: string;
            /**
             * Format: uri
             * @description An http(s) URL without credentials or fragment (https only in production); an internal address (an IP
             *     address outside the outbound allow-list, localhost) answers `400`.
             */
            authorizationEndpoint: string;
            /**
             * Format: uri
             * @description An http(s) URL without credentials or fragment (https only in production); an internal address (an IP
             *     address outside the outbound allow-list, localhost) answers `400`.
             */
            tokenEndpoint: string;
            /**
             * Format: uri
             * @description An http(s) URL without credentials or fragment (https only in production); an internal address (an IP
             *     address outside the outbound allow-list, localhost) answers `400`.
             */
            jwksUri: string;
            /**
             * Format: uri
             * @description An http(s) URL without credentials or fragment (https only in production); an internal address (an IP
             *     address outside the outbound allow-list, localhost) answers `400`.
             */
            issuer: string;
        };
        /**
         * @description What happened to an account's security:
         *     - `sign_in_succeeded`: a sign-in completed (every factor proven), by `details.method`;
         *     - `sign_in_failed`: a wrong password, coAlert code or passkey assertion for a known account;
         *     - `sign_in_locked_out`: an attempt refused (429) by a lockout before anything was checked;
         *     - `sign_in_stepped_up`: a right password from an unfamiliar network while the account's ceiling is reached: the
         *       session waits for an emailed code;
         *     - `second_factor_failed`: a wrong one-time code for a session waiting for its second factor;
         *     - `passkey_added`, `passkey_removed`: by the user, or removed by a password reset or the emailed removal link;
         *     - `password_changed` (signed in, with the current password), `password_reset` (through an emailed link);
         *     - `sessions_ended`: sessions ended by the user, an administrator or a directory; `details.count`, `details.reason`;
         *     - `permission_granted`, `permission_revoked`: a permission flag of the member in this tenant (`details.permission`);
         *     - `member_provisioned`, `member_updated`, `member_deactivated`, `member_removed`: a directory (SCIM) or the
         *       operator tool changed the member.
         * @example sign_in_failed
         * @enum {string}
         */
        SecurityEventKind: "sign_in_succeeded" | "sign_in_failed" | "sign_in_locked_out" | "sign_in_stepped_up" | "second_factor_failed" | "passkey_added" | "passkey_removed" | "password_changed" | "password_reset" | "sessions_ended" | "permission_granted" | "permission_revoked" | "member_provisioned" | "member_updated" | "member_deactivated" | "member_removed";
        /**
         * @description One security event. It never holds a password, a code, a token or an unsalted hash; the client is coarse: the
         *     network of its address (IPv4 /24, IPv6 /48) and its user agent (at most 256 characters).
         */
        SecurityEvent: {
            /**
             * @description The event's id; events are listed by it, newest (largest) first.
             * @example 1042
             */
            id: string;
            at: components["schemas"]["Timestamp"];
            kind: components["schemas"]["SecurityEventKind"];
            /**
             * @description Whether what the event records succeeded, failed (a wrong secret) or was refused (a lockout).
             * @enum {string}
             */
            outcome: "succeeded" | "failed" | "refused";
            /**
             * Format: int64
             * @description The tenant the event happened in (a permission, a directory's change); null for an event of the account
             *     itself (a sign-in, a passkey, a password), which every tenant the user belongs to sees.
             */
            tenantId: number | null;
            /**
             * Format: int64
             * @description The account the event is about; null once the account is deleted.
             */
            userId: number | null;
            /**
             * @description Who did it: the user herself (`self`), another user such as an administrator (`user`, with `userId`), a
             *     directory through SCIM (`scim`), the operator tool (`operator`) or the system (`system`: housekeeping,
             *     a lockout).
             */
            actor: {
                /** @enum {string} */
                type: "self" | "user" | "scim" | "operator" | "system";
                /** Format: int64 */
                userId: number | null;
            };
            region: components["schemas"]["Region"];
            client: {
                /**
                 * @description The network of the client's address (`203.0.113.0/24`, `2001:db8:1::/48`); null when none.
                 * @example 203.0.113.0/24
                 */
                network: string | null;
                /** @description The client's user agent, cut at 256 characters; null when none was sent. */
                userAgent: string | null;
            };
            /**
             * @description What else the kind says, all optional: `method` (how a sign-in or step was made: `password`, `passkey`,
             *     `otpEmail`, `otpSms`, `coalert`, `oidc`, `saml`, `skolon`), `reason` (why sessions ended), `count` (how many
             *     sessions or passkeys), `permission` (the flag granted or revoked, e.g. `cec.maySend`), `passkeyName`.
             */
            details: {
                method?: string;
                reason?: string;
                count?: number;
                permission?: string;
                passkeyName?: string;
            };
        };
        /**
         * @description A page of security events, newest first. `nextCursor` continues the list after the page's last event (pass it as
         *     `cursor`); null on the last page.
         */
        SecurityEventPage: {
            data: components["schemas"]["SecurityEvent"][];
            /** @description The cursor of the next page, or null when there is none. */
            nextCursor: string | null;
        };
        /**
         * @description A SCIM error (RFC 7644 section 3.12). `status` is the HTTP status as a string; `scimType` names the kind of
         *     problem where SCIM defines one (`invalidFilter`, `invalidSyntax`, `invalidValue`, `uniqueness`, `mutability`,
         *     `noTarget`, `invalidPath`, `tooMany`).
         * @example {
         *       "schemas": [
         *         "urn:ietf:params:scim:api:messages:2.0:Error"
         *       ],
         *       "status": "404",
         *       "detail": "No such user"
         *     }
         */
        ScimError: {
            schemas: "urn:ietf:params:scim:api:messages:2.0:Error"[];
            status: string;
            scimType?: string;
            detail?: string;
        };
        /** @description Whether a SCIM feature is supported. */
        ScimSupported: {
            supported: boolean;
        };
        /** @description SCIM 2.0 ServiceProviderConfig resource (RFC 7643 section 5). */
        ScimServiceProviderConfig: {
            schemas: "urn:ietf:params:scim:schemas:core:2.0:ServiceProviderConfig"[];
            patch: components["schemas"]["ScimSupported"];
            bulk: {
                supported: boolean;
                maxOperations: number;
                maxPayloadSize: number;
            };
            filter: {
                supported: boolean;
                maxResults: number;
            };
            changePassword: components["schemas"]["ScimSupported"];
            sort: components["schemas"]["ScimSupported"];
            etag: components["schemas"]["ScimSupported"];
            authenticationSchemes: {
                type: string;
                name: string;
                description: string;
            }[];
        };
        /** @description A SCIM list response of discovery resources (resource types or schemas, RFC 7643 sections 6 and 7). */
        ScimDiscoveryList: {
            schemas: "urn:ietf:params:scim:api:messages:2.0:ListResponse"[];
            totalResults: number;
            startIndex: number;
            itemsPerPage: number;
            Resources: ({
                schemas: string[];
                id: string;
            } & {
                [key: string]: unknown;
            })[];
        };
        /** @description Metadata of a discovery resource (RFC 7643 sections 6 and 7). */
        ScimDiscoveryMeta: {
            /** @enum {string} */
            resourceType: "ResourceType" | "Schema";
            /** Format: uri */
            location: string;
        };
        /**
         * @description A SCIM resource type (RFC 7643 section 6): `User` at `/Users` or `Group` at `/Groups`.
         * @example {
         *       "schemas": [
         *         "urn:ietf:params:scim:schemas:core:2.0:ResourceType"
         *       ],
         *       "id": "User",
         *       "name": "User",
         *       "endpoint": "/Users",
         *       "schema": "urn:ietf:params:scim:schemas:core:2.0:User",
         *       "meta": {
         *         "resourceType": "ResourceType",
         *         "location": "https://api.example.com/core/v1/scim/v2/ResourceTypes/User"
         *       }
         *     }
         */
        ScimResourceType: {
            schemas: "urn:ietf:params:scim:schemas:core:2.0:ResourceType"[];
            /** @enum {string} */
            id: "User" | "Group";
            /** @enum {string} */
            name: "User" | "Group";
            /** @enum {string} */
            endpoint: "/Users" | "/Groups";
            schema: string;
            meta: components["schemas"]["ScimDiscoveryMeta"];
        };
        /**
         * @description A sub-attribute of a complex attribute (RFC 7643 section 7), described like an attribute. A complex attribute
         *     has no complex sub-attributes (RFC 7643 section 2.3.8), so a sub-attribute has no `subAttributes` of its own.
         */
        ScimSchemaSubAttribute: {
            name: string;
            /** @enum {string} */
            type: "string" | "boolean" | "decimal" | "integer" | "dateTime" | "reference" | "complex";
            multiValued: boolean;
            description?: string;
            required: boolean;
            caseExact: boolean;
            /** @enum {string} */
            mutability: "readOnly" | "readWrite" | "immutable" | "writeOnly";
            /** @enum {string} */
            returned: "always" | "never" | "default" | "request";
            /** @enum {string} */
            uniqueness: "none" | "server" | "global";
            canonicalValues?: string[];
            referenceTypes?: string[];
        };
        /**
         * @description An attribute as this service keeps it (RFC 7643 section 7): what it says is what the service does, and a test
         *     holds it to that (every readWrite attribute round-trips, every readOnly one is not written).
         */
        ScimSchemaAttribute: {
            name: string;
            /** @enum {string} */
            type: "string" | "boolean" | "decimal" | "integer" | "dateTime" | "reference" | "complex";
            multiValued: boolean;
            description?: string;
            required: boolean;
            caseExact: boolean;
            /** @enum {string} */
            mutability: "readOnly" | "readWrite" | "immutable" | "writeOnly";
            /** @enum {string} */
            returned: "always" | "never" | "default" | "request";
            /** @enum {string} */
            uniqueness: "none" | "server" | "global";
            canonicalValues?: string[];
            referenceTypes?: string[];
            subAttributes?: components["schemas"]["ScimSchemaSubAttribute"][];
        };
        /** @description A SCIM schema (RFC 7643 section 7) limited to the attributes this service keeps. */
        ScimSchema: {
            schemas: "urn:ietf:params:scim:schemas:core:2.0:Schema"[];
            /** @enum {string} */
            id: "urn:ietf:params:scim:schemas:core:2.0:User" | "urn:ietf:params:scim:schemas:core:2.0:Group";
            /** @enum {string} */
            name: "User" | "Group";
            description: string;
            attributes: components["schemas"]["ScimSchemaAttribute"][];
            meta: components["schemas"]["ScimDiscoveryMeta"];
        };
        /** @description A value of a multi-valued SCIM attribute (emails, phoneNumbers). */
        ScimMultiValue: {
            value: string;
            type?: string;
            /** @description A boolean, or `true` / `false` as a string in any letter case. */
            primary?: boolean | string;
        } & {
            [key: string]: unknown;
        };
        /**
         * @description Resource metadata (RFC 7643 section 3.1): every sub-attribute is returned unless `attributes` or
         *     `excludedAttributes` names sub-attributes of `meta`.
         */
        ScimMeta: {
            /** @enum {string} */
            resourceType?: "User" | "Group";
            created?: components["schemas"]["Timestamp"];
            lastModified?: components["schemas"]["Timestamp"];
            /** Format: uri */
            location?: string;
        };
        /**
         * @description A user of the tenant as SCIM sees it (RFC 7643 section 4.1). `id` is the user's id; `userName` is the email
         *     address the user signs in with; `active: false` means the tenant's directory deactivated the user here.
         *     `displayName` is the name the platform shows (from `displayName`, else `name.formatted`, else given and family
         *     name, else the address); `name` holds the parts the directory sent (`formatted`, when not sent, is given and
         *     family name). `emails` shows the `userName`. By default `userName`, `displayName`, `active`, `emails` and
         *     `meta` are returned; `attributes` and `excludedAttributes` choose others, and only `schemas` and `id` are
         *     always there.
         * @example {
         *       "schemas": [
         *         "urn:ietf:params:scim:schemas:core:2.0:User"
         *       ],
         *       "id": "42",
         *       "externalId": "6f1c2a9e-0b7d-4c1e-9a55-2d7c3e8f9a10",
         *       "userName": "anna@demo.test",
         *       "displayName": "Anna Andersson",
         *       "name": {
         *         "formatted": "Anna Andersson",
         *         "givenName": "Anna",
         *         "familyName": "Andersson"
         *       },
         *       "active": true,
         *       "emails": [
         *         {
         *           "value": "anna@demo.test",
         *           "type": "work",
         *           "primary": true
         *         }
         *       ],
         *       "meta": {
         *         "resourceType": "User",
         *         "created": "2026-11-22T08:00:00.000Z",
         *         "lastModified": "2026-11-22T08:00:00.000Z",
         *         "location": "https://api.example.com/core/v1/scim/v2/Users/42"
         *       }
         *     }
         */
        ScimUser: {
            schemas: string[];
            id: string;
            externalId?: string;
            userName?: string;
            displayName?: string;
            name?: {
                formatted?: string;
                givenName?: string;
                familyName?: string;
            };
            title?: string;
            active?: boolean;
            emails?: components["schemas"]["ScimMultiValue"][];
            phoneNumbers?: components["schemas"]["ScimMultiValue"][];
            meta?: components["schemas"]["ScimMeta"];
        };
        /** @description A SCIM list response (RFC 7644 section 3.4.2) of Users; `startIndex` is 1-based. */
        ScimUserList: {
            schemas: "urn:ietf:params:scim:api:messages:2.0:ListResponse"[];
            totalResults: number;
            startIndex: number;
            itemsPerPage: number;
            Resources: components["schemas"]["ScimUser"][];
        };
        /**
         * @description The user's name (RFC 7643 section 4.1.1): `formatted`, `givenName` and `familyName` are kept and returned;
         *     other parts (`middleName`, `honorificPrefix`, ...) are accepted and not kept.
         */
        ScimName: {
            formatted?: string;
            givenName?: string;
            familyName?: string;
        } & {
            [key: string]: unknown;
        };
        /**
         * @description A user to create or the full replacement of one (RFC 7643 section 4.1). `userName` must be an email address:
         *     it is what the user signs in with. Attributes this service does not keep (passwords, addresses, extension
         *     attributes) are accepted and ignored. Some clients send booleans as strings (`"True"`); both are accepted.
         *     No string may hold U+0000 (NUL).
         * @example {
         *       "schemas": [
         *         "urn:ietf:params:scim:schemas:core:2.0:User"
         *       ],
         *       "externalId": "6f1c2a9e-0b7d-4c1e-9a55-2d7c3e8f9a10",
         *       "userName": "anna@demo.test",
         *       "name": {
         *         "givenName": "Anna",
         *         "familyName": "Andersson"
         *       },
         *       "active": true,
         *       "emails": [
         *         {
         *           "value": "anna@demo.test",
         *           "type": "work",
         *           "primary": true
         *         }
         *       ]
         *     }
         */
        ScimUserInput: {
            schemas?: string[];
            externalId?: string;
            /**
             * Format: email
             * @description An email address, with a dot in its domain; no white space.
             */
            userName: string;
            displayName?: string;
            name?: components["schemas"]["ScimName"];
            title?: string;
            /** @description A boolean, or `true` / `false` as a string in any letter case (as Microsoft Entra ID sends it). */
            active?: boolean | string;
            emails?: components["schemas"]["ScimMultiValue"][];
            phoneNumbers?: components["schemas"]["ScimMultiValue"][];
        } & {
            [key: string]: unknown;
        };
        /**
         * @description A SCIM search (RFC 7644 section 3.4.3): the query parameters of a list in the body. `attributes` and
         *     `excludedAttributes` are lists of attribute names (as in the query parameters); `filter`, `startIndex` and
         *     `count` work as for the list. Sorting is not supported (`ServiceProviderConfig` says so): `sortBy` and
         *     `sortOrder` answer `400`.
         * @example {
         *       "schemas": [
         *         "urn:ietf:params:scim:api:messages:2.0:SearchRequest"
         *       ],
         *       "filter": "externalId eq \"6f1c2a9e-0b7d-4c1e-9a55-2d7c3e8f9a10\"",
         *       "excludedAttributes": [
         *         "meta"
         *       ],
         *       "startIndex": 1,
         *       "count": 10
         *     }
         */
        ScimSearchRequest: {
            schemas: "urn:ietf:params:scim:api:messages:2.0:SearchRequest"[];
            filter?: string;
            attributes?: string[];
            excludedAttributes?: string[];
            startIndex?: number;
            count?: number;
        };
        /**
         * @description A SCIM PATCH (RFC 7644 section 3.5.2). `op` is add, remove or replace in any letter case (Microsoft Entra ID
         *     sends `Replace`); `path` is an attribute path such as `active`, `name.givenName`,
         *     `emails[type eq "work"].value` or `members[value eq "42"]`; without a path, `value` is an object of attributes.
         *     A `remove` names its target: without a `path` it answers `400` with `scimType: noTarget` (RFC 7644 section
         *     3.5.2.2).
         * @example {
         *       "schemas": [
         *         "urn:ietf:params:scim:api:messages:2.0:PatchOp"
         *       ],
         *       "Operations": [
         *         {
         *           "op": "replace",
         *           "path": "externalId",
         *           "value": "6f1c2a9e-0b7d-4c1e-9a55-2d7c3e8f9a10"
         *         }
         *       ]
         *     }
         */
        ScimPatchRequest: {
            schemas?: string[];
            Operations: (({
                op: string;
                path: string;
                /** @description For `members`, the members to remove; otherwise ignored. */
                value?: unknown;
            } & {
                [key: string]: unknown;
            }) | ({
                op: string;
                path?: string;
                /** @description The new value; its shape depends on `path`. */
                value: unknown;
            } & {
                [key: string]: unknown;
            }))[];
        } & {
            [key: string]: unknown;
        };
        /**
         * @description A member of a SCIM group; `value` is the user's SCIM id, `$ref` the URI of the user (RFC 7643 section 4.2). In a
         *     request only `value` counts; `display` and `$ref` are answered from the user.
         */
        ScimGroupMember: {
            value: string;
            display?: string;
            $ref?: string;
        } & {
            [key: string]: unknown;
        };
        /**
         * @description A group the tenant's directory provisioned (RFC 7643 section 4.2); `id` is the group's id. By default
         *     `displayName`, `members` and `meta` are returned; `attributes` and `excludedAttributes` choose others, and
         *     only `schemas` and `id` are always there.
         * @example {
         *       "schemas": [
         *         "urn:ietf:params:scim:schemas:core:2.0:Group"
         *       ],
         *       "id": "7",
         *       "displayName": "Teachers",
         *       "members": [
         *         {
         *           "value": "42",
         *           "display": "Anna Andersson"
         *         }
         *       ],
         *       "meta": {
         *         "resourceType": "Group",
         *         "created": "2026-11-22T08:00:00.000Z",
         *         "lastModified": "2026-11-22T08:00:00.000Z",
         *         "location": "https://api.example.com/core/v1/scim/v2/Groups/7"
         *       }
         *     }
         */
        ScimGroup: {
            schemas: string[];
            id: string;
            externalId?: string;
            displayName?: string;
            members?: components["schemas"]["ScimGroupMember"][];
            meta?: components["schemas"]["ScimMeta"];
        };
        /** @description A SCIM list response (RFC 7644 section 3.4.2) of Groups; `startIndex` is 1-based. */
        ScimGroupList: {
            schemas: "urn:ietf:params:scim:api:messages:2.0:ListResponse"[];
            totalResults: number;
            startIndex: number;
            itemsPerPage: number;
            Resources: components["schemas"]["ScimGroup"][];
        };
        /**
         * @description A group to create or the full replacement of one; members are given by their user ids.
         * @example {
         *       "schemas": [
         *         "urn:ietf:params:scim:schemas:core:2.0:Group"
         *       ],
         *       "displayName": "Teachers",
         *       "members": [
         *         {
         *           "value": "42"
         *         }
         *       ]
         *     }
         */
        ScimGroupInput: {
            schemas?: string[];
            externalId?: string;
            displayName: string;
            members?: components["schemas"]["ScimGroupMember"][];
        } & {
            [key: string]: unknown;
        };
        /**
         * @description A SCIM list response (RFC 7644 section 3.4.2) of Users and Groups (a search from the root);
         *     `startIndex` is 1-based. Each resource says its type in `meta.resourceType`.
         */
        ScimResourceList: {
            schemas: "urn:ietf:params:scim:api:messages:2.0:ListResponse"[];
            totalResults: number;
            startIndex: number;
            itemsPerPage: number;
            Resources: (components["schemas"]["ScimUser"] | components["schemas"]["ScimGroup"])[];
        };
        /**
         * @description The form an identity provider posts to the assertion consumer service (SAML 2.0 HTTP-POST binding).
         * @example {
         *       "SAMLResponse": "PHNhbWxwOlJlc3BvbnNlIHhtbG5zOnNhbWxwPSJ1cm46b2FzaXM6bmFtZXM6dGM6U0FNTDoyLjA6cHJvdG9jb2wiLz4=",
         *       "RelayState": "https://login.example.com/login/sso"
         *     }
         */
        SamlAcsForm: {
            /** @description The SAML response (XML with the signed assertion), base64-encoded. */
            SAMLResponse: string;
            /**
             * @description The value the service provider sent with the authentication request and the identity provider returns
             *     unchanged; it names where the browser goes afterwards. Without it (or empty) the browser goes to the sign-in
             *     app's SSO page with `error=saml_validation_failed`.
             */
            RelayState?: string;
        };
    };
    responses: {
        /** @description Unexpected failure (INTERNAL_SERVER_ERROR, with a requestId), a feature not available yet (NOT_IMPLEMENTED), the service unavailable (SERVICE_UNAVAILABLE), a body too large (PAYLOAD_TOO_LARGE) or of an unsupported media type (UNSUPPORTED_MEDIA_TYPE), or request headers too large (REQUEST_HEADER_FIELDS_TOO_LARGE, 431). */
        Unexpected: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["ErrorResponse"];
            };
        };
        /** @description The request breaks the contract (BAD_REQUEST); `issues` says where and what. */
        BadRequest: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["ErrorResponse"];
            };
        };
        /** @description The access token is missing, malformed, expired or its session is revoked (UNAUTHORIZED, INVALID_AUTHORIZATION_HEADER, EXPIRED_ACCESS_TOKEN, INVALID_SESSION). */
        Unauthorized: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["ErrorResponse"];
            };
        };
        /** @description Too many attempts (TOO_MANY_REQUESTS); try again after `unavailableUntil`. */
        TooManyRequests: {
            headers: {
                "Retry-After": components["headers"]["RetryAfter"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["ErrorResponse"];
            };
        };
        /**
         * @description The access token is missing, malformed, expired or its session is revoked (UNAUTHORIZED,
         *     INVALID_AUTHORIZATION_HEADER, EXPIRED_ACCESS_TOKEN, INVALID_SESSION), or the session has not proven the account's
         *     credentials within the last 5 minutes (REAUTHENTICATION_REQUIRED: prove them again with
         *     `POST /sessions/{id}/reauthentication`, then repeat the request).
         */
        ReauthenticationRequired: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["ErrorResponse"];
            };
        };
        /** @description Nothing with that id is visible to the caller (NOT_FOUND). */
        NotFound: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["ErrorResponse"];
            };
        };
        /** @description The caller may not do this in this tenant (FORBIDDEN). */
        Forbidden: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["ErrorResponse"];
            };
        };
        /**
         * @description A quota of external messages for the hour is used up (TOO_MANY_REQUESTS): first the sender's own
         *     (`EXTERNAL_MESSAGES_PER_SENDER_PER_HOUR`, 30 by default), last the tenant's higher ceiling over all its senders
         *     (`EXTERNAL_MESSAGES_PER_TENANT_PER_HOUR`, 300 by default). Neither holds back a tenant administrator's own
         *     messages. Only stored messages count, never a refused request. Nothing is stored or sent; `administrators` names
         *     who to ask (the tenant's administrators, who can lift both for the next hour: `liftCecCeiling`), as does the
         *     message; else try again after `unavailableUntil` (the end of the hour's window), which `Retry-After` gives in
         *     seconds.
         */
        ExternalMessageQuotaExceeded: {
            headers: {
                "Retry-After": components["headers"]["RetryAfter"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["ErrorResponse"];
            };
        };
        /**
         * @description The sender's alarm quota for the hour is used up (TOO_MANY_REQUESTS): alarms created per sender that do not go
         *     off now (`ALARMS_PER_SENDER_PER_HOUR`, 60 by default; an alarm created active with a dispatch time at most a
         *     minute ahead or already passed is never refused and never counted). Only created alarms count, never a refused
         *     request. The caller's user is the sender. Nothing is changed; try again after `unavailableUntil` (the end of the
         *     hour's window), which `Retry-After` gives in seconds.
         */
        AlarmQuotaExceeded: {
            headers: {
                "Retry-After": components["headers"]["RetryAfter"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["ErrorResponse"];
            };
        };
        /**
         * @description A SCIM error (RFC 7644 section 3.12), always `application/scim+json`: `400` for a request SCIM cannot use (with
         *     `scimType`; `mutability` for a PATCH `remove` of an attribute that may not be removed), `401` without a valid
         *     api key of scope `scim`, `404` for a resource that is not this tenant's, `405` for a method the path does not
         *     have (with `Allow`), `409` when `userName` or `externalId` is taken (`scimType: uniqueness`), `413` for a body
         *     over the limit, `415` for a body that is not JSON, `429` when throttled and `503` when the service is busy (both with `Retry-After`), `431` for
         *     request headers too large, `5xx` for failures of the service.
         */
        ScimError: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/scim+json": components["schemas"]["ScimError"];
            };
        };
    };
    parameters: {
        /** @description Version of the core API contract the client speaks. Must be `1`. */
        ApiVersionHeader: "1";
        /** @description Page size. */
        Limit: number;
        /** @description Number of items to skip. */
        Offset: number;
        /**
         * @description The body's `grantType`, repeated where the server's door can read it before the body: a request naming a grant
         *     that checks no password (`passkey`, `coAlertCode`, `sso`) is then admitted beside other unauthenticated work
         *     instead of in the line of password checks, so a wave of password sign-ins does not hold it back. When given it
         *     must equal the body's `grantType` (else `400 BAD_REQUEST`). Optional: without it every grant waits in the line of
         *     password checks.
         */
        GrantTypeHeader: "password" | "coAlertCode" | "sso" | "passkey";
        /** @description Must be `true`: ends every live session of the caller except the one asking ("sign out everywhere else"). */
        OtherSessions: true;
        /** @description The session id. */
        SessionId: string;
        /**
         * @description The language the sign-in app is showing (a standard Accept-Language value, such as `sv-SE,sv;q=0.9,en;q=0.8`).
         *     The message this request sends is written in the user's `preferredLanguage`; for a user who has chosen none, in
         *     the best of the supported languages (sv, en, nl, fi, es, pt) this header names, else in English. A value that
         *     names none of them, or cannot be read, means English; it never makes the request fail.
         * @example sv-SE,sv;q=0.9,en;q=0.8
         */
        AcceptLanguage: string;
        /** @description The passkey's id (a UUID; anything else answers `400 BAD_REQUEST`). */
        PasskeyId: string;
        /** @description The identity hash, SHA-256 of the lowercased email, as 64 lowercase hexadecimal digits. */
        IdentityHash: string;
        /** @description A DNS domain name, such as the domain part of a user's email address. Compared case-insensitively. */
        IdpDomain: string;
        /**
         * @description The device's push token as issued by the platform's push service (APNs, FCM or the desktop app), URL-encoded in the
         *     path. It identifies the registration.
         */
        PushTokenId: string;
        /** @description The tenant the call acts in; the signed-in user must belong to it, else `403 FORBIDDEN`. */
        TenantIdHeader: string;
        /** @description The user id. */
        UserId: components["schemas"]["Id"];
        /**
         * @description The token from the link emailed to the user. It travels in this header (and in the body of the POST that uses
         *     it), never in a URL: URLs are kept by proxies, load balancers and access logs. A `token` in the query string
         *     answers `400 BAD_REQUEST` (an unknown query parameter) before the token is looked at. The sign-in app sends it
         *     only to the region the link names (`region` in the link).
         */
        PasswordTokenHeader: string;
        /** @description The id of one of the member's sessions (see `GET /users/{userId}/sessions`). */
        MemberSessionId: string;
        /**
         * @description Only items whose name contains this text, case-insensitively. `%` and `_` are matched as literal characters,
         *     not as wildcards.
         */
        NameMatch: string;
        /** @description The group id. */
        GroupId: components["schemas"]["Id"];
        /** @description The api key id (a UUID; anything else answers `400 BAD_REQUEST`). */
        ApiKeyId: string;
        /** @description The contact id. */
        ContactId: components["schemas"]["Id"];
        /**
         * @description Only messages whose content contains this text, ignoring case. `%` and `_` are matched literally (they are not
         *     wildcards).
         */
        CecContentMatch: string;
        /**
         * @description Only messages sent to at least one of these external communication groups, comma-separated
         *     (`externalCommunicationGroupIds=31,32`). Ids that are not groups of the tenant match nothing.
         */
        CecGroupIdsFilter: components["schemas"]["Id"][];
        /** @description The external communication message id. */
        CecMessageId: components["schemas"]["Id"];
        /** @description `active`: only alarms that are active. Without it, all alarms are listed. */
        PersonalAlarmStatusFilter: "active";
        /** @description The personal alarm id. */
        PersonalAlarmId: components["schemas"]["Id"];
        /** @description Keeps events about this member's account. */
        SecurityEventUserFilter: number;
        /** @description Keeps events of these kinds (repeat the parameter for several). */
        SecurityEventKindFilter: components["schemas"]["SecurityEventKind"][];
        /** @description Keeps events at or after this instant. */
        SecurityEventFrom: string;
        /** @description Keeps events before this instant. */
        SecurityEventTo: string;
        /** @description The `nextCursor` of the previous page; the list continues with older events. */
        SecurityEventCursor: string;
        /** @description Page size. */
        SecurityEventLimit: number;
        /**
         * @description The resource type's id, `User` or `Group` (as written); any other answers `404`.
         * @example User
         */
        ScimResourceTypeId: string;
        /**
         * @description The schema's URN, `urn:ietf:params:scim:schemas:core:2.0:User` or `...:Group` (case-insensitive, as RFC 7643
         *     section 2.1 reads schema URIs); any other answers `404`.
         * @example urn:ietf:params:scim:schemas:core:2.0:User
         */
        ScimSchemaUrn: string;
        /**
         * @description A SCIM filter on users; this service supports `<attribute> eq "<value>"` on `userName`, `externalId`, `id`,
         *     `emails.value` and `displayName` (case-insensitive). Anything else answers
         *     `400` with `scimType: invalidFilter`, as does a quoted value with an invalid escape. Reserved characters may
         *     appear unencoded (`@`, `+` for a space, as RFC 7644 clients send them).
         */
        ScimFilter: string;
        /** @description 1-based index of the first result; values below 1 count as 1. */
        ScimStartIndex: number;
        /** @description Results per page; at most 100 are returned, negative values count as 0. */
        ScimCount: number;
        /**
         * @description Comma-separated attributes to return instead of the default set (RFC 7644 section 3.4.2.5, 3.9): names are
         *     case-insensitive, may carry the schema URN and may name one sub-attribute (`name.givenName`,
         *     `emails.type`, `meta.location`). `id` and `schemas` are always returned, and `value` of each item of a
         *     multi-valued attribute. Names that are not attributes of the resource select nothing; an empty value is the
         *     same as none. With both parameters, `attributes` decides.
         */
        ScimAttributes: string;
        /**
         * @description Comma-separated attributes to leave out of the default set (RFC 7644 section 3.4.2.5, 3.9), named as for
         *     `attributes`; `id` and `schemas` are never left out, nor `value` of the items of a multi-valued attribute.
         *     Names that are not attributes of the resource exclude nothing; an empty value is the same as none.
         */
        ScimExcludedAttributes: string;
        /** @description The user's SCIM id; an id that is not one of this tenant's users answers `404`. */
        ScimUserId: string;
        /**
         * @description A SCIM filter on groups; this service supports `<attribute> eq "<value>"` on `displayName` (case-insensitive),
         *     `externalId` and `id`. Anything else answers `400` with `scimType: invalidFilter`, as does a quoted value with
         *     an invalid escape. Reserved characters may appear unencoded (as RFC 7644 clients send them).
         */
        ScimGroupFilter: string;
        /** @description The group's SCIM id; an id that is not one of this tenant's provisioned groups answers `404`. */
        ScimGroupId: string;
    };
    requestBodies: never;
    headers: {
        /** @description Seconds to wait before trying again. */
        RetryAfter: number;
    };
    pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
    listSessions: {
        parameters: {
            query?: {
                /** @description Page size. */
                limit?: components["parameters"]["Limit"];
                /** @description Number of items to skip. */
                offset?: components["parameters"]["Offset"];
            };
            header: {
                /** @description Version of the core API contract the client speaks. Must be `1`. */
                "cosafe-core-api-version": components["parameters"]["ApiVersionHeader"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of the caller's live sessions. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ActiveSessionList"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            default: components["responses"]["Unexpected"];
        };
    };
    createSession: {
        parameters: {
            query?: never;
            header: {
                /** @description Version of the core API contract the client speaks. Must be `1`. */
                "cosafe-core-api-version": components["parameters"]["ApiVersionHeader"];
                /**
                 * @description The body's `grantType`, repeated where the server's door can read it before the body: a request naming a grant
                 *     that checks no password (`passkey`, `coAlertCode`, `sso`) is then admitted beside other unauthenticated work
                 *     instead of in the line of password checks, so a wave of password sign-ins does not hold it back. When given it
                 *     must equal the body's `grantType` (else `400 BAD_REQUEST`). Optional: without it every grant waits in the line of
                 *     password checks.
                 */
                "cosafe-grant-type"?: components["parameters"]["GrantTypeHeader"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateSessionRequest"];
            };
        };
        responses: {
            /** @description The session, with its tokens and factors. */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Session"];
                };
            };
            /**
             * @description The request breaks the contract (BAD_REQUEST; `issues` says where and what; also when `cosafe-grant-type` is
             *     not the body's `grantType`), the `sso` grant's email
             *     domain does not sign in with single sign-on here (INVALID_SSO_CONFIGURATION), or no part of the `passkey`
             *     grant's challenge is a live challenge of this region (PASSKEY_CHALLENGE_EXPIRED).
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The credentials do not match (INVALID_CREDENTIALS; `password`, `coAlertCode` and `passkey`). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The coAlert code has been used as often as it may be (COALERT_CODE_USAGE_LIMIT_REACHED). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            429: components["responses"]["TooManyRequests"];
            default: components["responses"]["Unexpected"];
        };
    };
    deleteOtherSessions: {
        parameters: {
            query: {
                /** @description Must be `true`: ends every live session of the caller except the one asking ("sign out everywhere else"). */
                others: components["parameters"]["OtherSessions"];
            };
            header: {
                /** @description Version of the core API contract the client speaks. Must be `1`. */
                "cosafe-core-api-version": components["parameters"]["ApiVersionHeader"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The other sessions have ended. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["EndedSessions"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            default: components["responses"]["Unexpected"];
        };
    };
    refreshSession: {
        parameters: {
            query?: never;
            header: {
                /** @description Version of the core API contract the client speaks. Must be `1`. */
                "cosafe-core-api-version": components["parameters"]["ApiVersionHeader"];
            };
            path: {
                /** @description The session id. */
                id: components["parameters"]["SessionId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The session with new tokens. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Session"];
                };
            };
            400: components["responses"]["BadRequest"];
            /**
             * @description The refresh token is missing or malformed (UNAUTHORIZED, INVALID_AUTHORIZATION_HEADER), unknown or reused
             *     (INVALID_REFRESH_TOKEN), expired (EXPIRED_REFRESH_TOKEN), the session id is unknown or not this token's
             *     (INVALID_SESSION_ID), or the session was revoked (INVALID_SESSION).
             */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            default: components["responses"]["Unexpected"];
        };
    };
    deleteSession: {
        parameters: {
            query?: never;
            header: {
                /** @description Version of the core API contract the client speaks. Must be `1`. */
                "cosafe-core-api-version": components["parameters"]["ApiVersionHeader"];
            };
            path: {
                /** @description The session id. */
                id: components["parameters"]["SessionId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The session is revoked. */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["BadRequest"];
            /**
             * @description The session id is not the caller's (INVALID_SESSION_ID) or the access token is not valid (UNAUTHORIZED,
             *     INVALID_AUTHORIZATION_HEADER, EXPIRED_ACCESS_TOKEN, INVALID_SESSION).
             */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            default: components["responses"]["Unexpected"];
        };
    };
    verifySessionChallenge: {
        parameters: {
            query?: never;
            header: {
                /** @description Version of the core API contract the client speaks. Must be `1`. */
                "cosafe-core-api-version": components["parameters"]["ApiVersionHeader"];
            };
            path: {
                /** @description The session id. */
                id: components["parameters"]["SessionId"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["VerifyChallengeRequest"];
            };
        };
        responses: {
            /** @description The session with the factor verified. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Session"];
                };
            };
            /**
             * @description The request breaks the contract (BAD_REQUEST), no such challenge is pending (AUTHORIZATION_CODE_NOT_FOUND),
             *     the SSO challenge expired (SSO_CHALLENGE_EXPIRED), the tenant's SSO settings are unusable
             *     (INVALID_SSO_CONFIGURATION), the session cannot be completed with a passkey (PASSKEY_NOT_REGISTERED) or its
             *     passkey challenge expired or was used (PASSKEY_CHALLENGE_EXPIRED).
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /**
             * @description The code or passkey assertion is wrong (INVALID_CREDENTIALS) or the code expired or used up (MFA_TOKEN_EXPIRED), the identity provider
             *     asserted someone who is no active member of the organisation (INVALID_CREDENTIALS), rejected the
             *     code (INVALID_SSO_AUTHORIZATION_CODE), its ID token is not valid or asserts an email outside the
             *     organisation's single sign-on domains (INVALID_SSO_ID_TOKEN), the session id is
             *     not the caller's (INVALID_SESSION_ID), or the access token is not valid (UNAUTHORIZED,
             *     INVALID_AUTHORIZATION_HEADER, EXPIRED_ACCESS_TOKEN, INVALID_SESSION).
             */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The Skolon user is not a teacher (SKOLON_USER_NOT_TEACHER). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            429: components["responses"]["TooManyRequests"];
            default: components["responses"]["Unexpected"];
        };
    };
    createSessionChallenge: {
        parameters: {
            query?: never;
            header: {
                /** @description Version of the core API contract the client speaks. Must be `1`. */
                "cosafe-core-api-version": components["parameters"]["ApiVersionHeader"];
                /**
                 * @description The language the sign-in app is showing (a standard Accept-Language value, such as `sv-SE,sv;q=0.9,en;q=0.8`).
                 *     The message this request sends is written in the user's `preferredLanguage`; for a user who has chosen none, in
                 *     the best of the supported languages (sv, en, nl, fi, es, pt) this header names, else in English. A value that
                 *     names none of them, or cannot be read, means English; it never makes the request fail.
                 * @example sv-SE,sv;q=0.9,en;q=0.8
                 */
                "Accept-Language"?: components["parameters"]["AcceptLanguage"];
            };
            path: {
                /** @description The session id. */
                id: components["parameters"]["SessionId"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateChallengeRequest"];
            };
        };
        responses: {
            /** @description The code was sent, where to sign in, or the passkey request options. */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ChallengeResult"];
                };
            };
            /**
             * @description The request breaks the contract (BAD_REQUEST), the user has no phone number for SMS
             *     (MFA_REQUIRED_BUT_NOT_ENABLED), the session cannot be completed with a passkey (PASSKEY_NOT_REGISTERED), the
             *     tenant's SSO settings are missing or unusable (INVALID_SSO_CONFIGURATION) or the redirect URI is not allowed
             *     (INVALID_REDIRECT_URI).
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            401: components["responses"]["Unauthorized"];
            429: components["responses"]["TooManyRequests"];
            default: components["responses"]["Unexpected"];
        };
    };
    reauthenticateSession: {
        parameters: {
            query?: never;
            header: {
                /** @description Version of the core API contract the client speaks. Must be `1`. */
                "cosafe-core-api-version": components["parameters"]["ApiVersionHeader"];
            };
            path: {
                /** @description The session id. */
                id: components["parameters"]["SessionId"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["ReauthenticationRequest"];
            };
        };
        responses: {
            /** @description The session proved its credentials now. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Reauthentication"];
                };
            };
            400: components["responses"]["BadRequest"];
            /**
             * @description The access token or its session is not valid (UNAUTHORIZED, INVALID_AUTHORIZATION_HEADER,
             *     EXPIRED_ACCESS_TOKEN, INVALID_SESSION), the session is not the caller's (INVALID_SESSION_ID), or the password
             *     or passkey is not the account's (INVALID_CREDENTIALS).
             */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            429: components["responses"]["TooManyRequests"];
            default: components["responses"]["Unexpected"];
        };
    };
    listPasskeys: {
        parameters: {
            query?: {
                /** @description Page size. */
                limit?: components["parameters"]["Limit"];
                /** @description Number of items to skip. */
                offset?: components["parameters"]["Offset"];
            };
            header: {
                /** @description Version of the core API contract the client speaks. Must be `1`. */
                "cosafe-core-api-version": components["parameters"]["ApiVersionHeader"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of the caller's passkeys. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PasskeyList"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            default: components["responses"]["Unexpected"];
        };
    };
    createPasskey: {
        parameters: {
            query?: never;
            header: {
                /** @description Version of the core API contract the client speaks. Must be `1`. */
                "cosafe-core-api-version": components["parameters"]["ApiVersionHeader"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreatePasskeyRequest"];
            };
        };
        responses: {
            /** @description The new passkey. */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Passkey"];
                };
            };
            /**
             * @description The request breaks the contract (BAD_REQUEST), the challenge expired or was used
             *     (PASSKEY_CHALLENGE_EXPIRED), or the authenticator's answer does not verify (PASSKEY_REGISTRATION_FAILED).
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            401: components["responses"]["ReauthenticationRequired"];
            /** @description The session did not sign in with the account's own credentials (FORBIDDEN). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The account already has the maximum of 10 passkeys (LIMIT_REACHED). */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            default: components["responses"]["Unexpected"];
        };
    };
    createPasskeyRegistrationOptions: {
        parameters: {
            query?: never;
            header: {
                /** @description Version of the core API contract the client speaks. Must be `1`. */
                "cosafe-core-api-version": components["parameters"]["ApiVersionHeader"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The creation options, with a new challenge. */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PasskeyRegistrationOptions"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["ReauthenticationRequired"];
            /** @description The session did not sign in with the account's own credentials (FORBIDDEN). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The account already has the maximum of 10 passkeys (LIMIT_REACHED). */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            429: components["responses"]["TooManyRequests"];
            default: components["responses"]["Unexpected"];
        };
    };
    createPasskeyAuthenticationOptions: {
        parameters: {
            query?: never;
            header: {
                /** @description Version of the core API contract the client speaks. Must be `1`. */
                "cosafe-core-api-version": components["parameters"]["ApiVersionHeader"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The request options, with a new challenge. */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PasskeyRequestOptions"];
                };
            };
            400: components["responses"]["BadRequest"];
            429: components["responses"]["TooManyRequests"];
            default: components["responses"]["Unexpected"];
        };
    };
    removePasskeyByLink: {
        parameters: {
            query?: never;
            header: {
                /** @description Version of the core API contract the client speaks. Must be `1`. */
                "cosafe-core-api-version": components["parameters"]["ApiVersionHeader"];
                /**
                 * @description The language the sign-in app is showing (a standard Accept-Language value, such as `sv-SE,sv;q=0.9,en;q=0.8`).
                 *     The message this request sends is written in the user's `preferredLanguage`; for a user who has chosen none, in
                 *     the best of the supported languages (sv, en, nl, fi, es, pt) this header names, else in English. A value that
                 *     names none of them, or cannot be read, means English; it never makes the request fail.
                 * @example sv-SE,sv;q=0.9,en;q=0.8
                 */
                "Accept-Language"?: components["parameters"]["AcceptLanguage"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["PasskeyRemovalRequest"];
            };
        };
        responses: {
            /** @description The passkey is removed. */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["BadRequest"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["TooManyRequests"];
            default: components["responses"]["Unexpected"];
        };
    };
    deletePasskey: {
        parameters: {
            query?: never;
            header: {
                /** @description Version of the core API contract the client speaks. Must be `1`. */
                "cosafe-core-api-version": components["parameters"]["ApiVersionHeader"];
            };
            path: {
                /** @description The passkey's id (a UUID; anything else answers `400 BAD_REQUEST`). */
                passkeyId: components["parameters"]["PasskeyId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The passkey is deleted. */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["ReauthenticationRequired"];
            404: components["responses"]["NotFound"];
            default: components["responses"]["Unexpected"];
        };
    };
    updatePasskey: {
        parameters: {
            query?: never;
            header: {
                /** @description Version of the core API contract the client speaks. Must be `1`. */
                "cosafe-core-api-version": components["parameters"]["ApiVersionHeader"];
            };
            path: {
                /** @description The passkey's id (a UUID; anything else answers `400 BAD_REQUEST`). */
                passkeyId: components["parameters"]["PasskeyId"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["UpdatePasskeyRequest"];
            };
        };
        responses: {
            /** @description The renamed passkey. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Passkey"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["ReauthenticationRequired"];
            404: components["responses"]["NotFound"];
            default: components["responses"]["Unexpected"];
        };
    };
    probeHash: {
        parameters: {
            query?: never;
            header: {
                /** @description Version of the core API contract the client speaks. Must be `1`. */
                "cosafe-core-api-version": components["parameters"]["ApiVersionHeader"];
            };
            path: {
                /** @description The identity hash, SHA-256 of the lowercased email, as 64 lowercase hexadecimal digits. */
                hash: components["parameters"]["IdentityHash"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["ProbeHashRequest"];
            };
        };
        responses: {
            /** @description Whether the credentials are valid in this region. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RegionProbeResult"];
                };
            };
            400: components["responses"]["BadRequest"];
            429: components["responses"]["TooManyRequests"];
            default: components["responses"]["Unexpected"];
        };
    };
    probeIdpDomain: {
        parameters: {
            query?: never;
            header: {
                /** @description Version of the core API contract the client speaks. Must be `1`. */
                "cosafe-core-api-version": components["parameters"]["ApiVersionHeader"];
            };
            path: {
                /** @description A DNS domain name, such as the domain part of a user's email address. Compared case-insensitively. */
                idpDomain: components["parameters"]["IdpDomain"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Whether the domain signs in with single sign-on in this region. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["IdpDomainProbeResult"];
                };
            };
            400: components["responses"]["BadRequest"];
            429: components["responses"]["TooManyRequests"];
            default: components["responses"]["Unexpected"];
        };
    };
    putPushToken: {
        parameters: {
            query?: never;
            header: {
                /** @description Version of the core API contract the client speaks. Must be `1`. */
                "cosafe-core-api-version": components["parameters"]["ApiVersionHeader"];
            };
            path: {
                /**
                 * @description The device's push token as issued by the platform's push service (APNs, FCM or the desktop app), URL-encoded in the
                 *     path. It identifies the registration.
                 */
                id: components["parameters"]["PushTokenId"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["PushTokenRequest"];
            };
        };
        responses: {
            /** @description The registered push token. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PushToken"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            default: components["responses"]["Unexpected"];
        };
    };
    deletePushToken: {
        parameters: {
            query?: never;
            header: {
                /** @description Version of the core API contract the client speaks. Must be `1`. */
                "cosafe-core-api-version": components["parameters"]["ApiVersionHeader"];
            };
            path: {
                /**
                 * @description The device's push token as issued by the platform's push service (APNs, FCM or the desktop app), URL-encoded in the
                 *     path. It identifies the registration.
                 */
                id: components["parameters"]["PushTokenId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The push token is removed. */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["NotFound"];
            default: components["responses"]["Unexpected"];
        };
    };
    listTenants: {
        parameters: {
            query?: {
                /** @description Page size. */
                limit?: components["parameters"]["Limit"];
                /** @description Number of items to skip. */
                offset?: components["parameters"]["Offset"];
            };
            header: {
                /** @description Version of the core API contract the client speaks. Must be `1`. */
                "cosafe-core-api-version": components["parameters"]["ApiVersionHeader"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of the caller's tenants. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TenantList"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            default: components["responses"]["Unexpected"];
        };
    };
    requestPasswordReset: {
        parameters: {
            query?: never;
            header: {
                /** @description Version of the core API contract the client speaks. Must be `1`. */
                "cosafe-core-api-version": components["parameters"]["ApiVersionHeader"];
                /**
                 * @description The language the sign-in app is showing (a standard Accept-Language value, such as `sv-SE,sv;q=0.9,en;q=0.8`).
                 *     The message this request sends is written in the user's `preferredLanguage`; for a user who has chosen none, in
                 *     the best of the supported languages (sv, en, nl, fi, es, pt) this header names, else in English. A value that
                 *     names none of them, or cannot be read, means English; it never makes the request fail.
                 * @example sv-SE,sv;q=0.9,en;q=0.8
                 */
                "Accept-Language"?: components["parameters"]["AcceptLanguage"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["RequestPasswordResetRequest"];
            };
        };
        responses: {
            /** @description Accepted; a reset link is emailed if the account exists. */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["BadRequest"];
            429: components["responses"]["TooManyRequests"];
            default: components["responses"]["Unexpected"];
        };
    };
    changePassword: {
        parameters: {
            query?: never;
            header: {
                /** @description Version of the core API contract the client speaks. Must be `1`. */
                "cosafe-core-api-version": components["parameters"]["ApiVersionHeader"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["ChangePasswordRequest"];
            };
        };
        responses: {
            /** @description The password is changed; the other sessions have ended. */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /**
             * @description The request breaks the contract, or the new password breaks a password rule, is too common or breached
             *     (rule `PASSWORD_ON_BREACH_LIST`) or is the current one (rule `PASSWORD_UNCHANGED`) (BAD_REQUEST).
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /**
             * @description The current password is not the account's, or the account has none (INVALID_CREDENTIALS), or the access
             *     token is not valid (UNAUTHORIZED, INVALID_AUTHORIZATION_HEADER, EXPIRED_ACCESS_TOKEN, INVALID_SESSION).
             */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            429: components["responses"]["TooManyRequests"];
            default: components["responses"]["Unexpected"];
        };
    };
    getUser: {
        parameters: {
            query?: never;
            header: {
                /** @description Version of the core API contract the client speaks. Must be `1`. */
                "cosafe-core-api-version": components["parameters"]["ApiVersionHeader"];
                /** @description The tenant the call acts in; the signed-in user must belong to it, else `403 FORBIDDEN`. */
                "cosafe-tenant-id": components["parameters"]["TenantIdHeader"];
            };
            path: {
                /** @description The user id. */
                userId: components["parameters"]["UserId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The user. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["User"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            default: components["responses"]["Unexpected"];
        };
    };
    updateUser: {
        parameters: {
            query?: never;
            header: {
                /** @description Version of the core API contract the client speaks. Must be `1`. */
                "cosafe-core-api-version": components["parameters"]["ApiVersionHeader"];
                /** @description The tenant the call acts in; the signed-in user must belong to it, else `403 FORBIDDEN`. */
                "cosafe-tenant-id": components["parameters"]["TenantIdHeader"];
            };
            path: {
                /** @description The user id. */
                userId: components["parameters"]["UserId"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["UpdateUserRequest"];
            };
        };
        responses: {
            /** @description The updated user. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["User"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            default: components["responses"]["Unexpected"];
        };
    };
    getUserSettings: {
        parameters: {
            query?: never;
            header: {
                /** @description Version of the core API contract the client speaks. Must be `1`. */
                "cosafe-core-api-version": components["parameters"]["ApiVersionHeader"];
                /** @description The tenant the call acts in; the signed-in user must belong to it, else `403 FORBIDDEN`. */
                "cosafe-tenant-id": components["parameters"]["TenantIdHeader"];
            };
            path: {
                /** @description The user id. */
                userId: components["parameters"]["UserId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The user's settings. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["UserSettings"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            default: components["responses"]["Unexpected"];
        };
    };
    updateUserSettings: {
        parameters: {
            query?: never;
            header: {
                /** @description Version of the core API contract the client speaks. Must be `1`. */
                "cosafe-core-api-version": components["parameters"]["ApiVersionHeader"];
                /** @description The tenant the call acts in; the signed-in user must belong to it, else `403 FORBIDDEN`. */
                "cosafe-tenant-id": components["parameters"]["TenantIdHeader"];
            };
            path: {
                /** @description The user id. */
                userId: components["parameters"]["UserId"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["UpdateUserSettingsRequest"];
            };
        };
        responses: {
            /** @description The updated settings. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["UserSettings"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            default: components["responses"]["Unexpected"];
        };
    };
    getUserPermissions: {
        parameters: {
            query?: never;
            header: {
                /** @description Version of the core API contract the client speaks. Must be `1`. */
                "cosafe-core-api-version": components["parameters"]["ApiVersionHeader"];
                /** @description The tenant the call acts in; the signed-in user must belong to it, else `403 FORBIDDEN`. */
                "cosafe-tenant-id": components["parameters"]["TenantIdHeader"];
            };
            path: {
                /** @description The user id. */
                userId: components["parameters"]["UserId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The user's permissions in the tenant. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["UserPermissions"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            default: components["responses"]["Unexpected"];
        };
    };
    getPasswordSetToken: {
        parameters: {
            query?: never;
            header: {
                /** @description Version of the core API contract the client speaks. Must be `1`. */
                "cosafe-core-api-version": components["parameters"]["ApiVersionHeader"];
                /**
                 * @description The token from the link emailed to the user. It travels in this header (and in the body of the POST that uses
                 *     it), never in a URL: URLs are kept by proxies, load balancers and access logs. A `token` in the query string
                 *     answers `400 BAD_REQUEST` (an unknown query parameter) before the token is looked at. The sign-in app sends it
                 *     only to the region the link names (`region` in the link).
                 */
                "cosafe-password-token": components["parameters"]["PasswordTokenHeader"];
            };
            path: {
                /** @description The user id. */
                userId: components["parameters"]["UserId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The state of the token. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PasswordTokenState"];
                };
            };
            400: components["responses"]["BadRequest"];
            429: components["responses"]["TooManyRequests"];
            default: components["responses"]["Unexpected"];
        };
    };
    setPassword: {
        parameters: {
            query?: never;
            header: {
                /** @description Version of the core API contract the client speaks. Must be `1`. */
                "cosafe-core-api-version": components["parameters"]["ApiVersionHeader"];
            };
            path: {
                /** @description The user id. */
                userId: components["parameters"]["UserId"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["SetPasswordRequest"];
            };
        };
        responses: {
            /** @description The password is set; the user can now sign in with it. */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /**
             * @description The request breaks the contract or the password breaks a password rule or is too common or breached
             *     (BAD_REQUEST, rule `PASSWORD_ON_BREACH_LIST`: see NewPassword), or the token is unknown or not this user's
             *     (USER_PASSWORD_SET_TOKEN_INVALID).
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The user's password is already set; the invitation link was used (USER_PASSWORD_ALREADY_SET). */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The invitation link is older than 30 days (USER_PASSWORD_SET_TOKEN_EXPIRED). */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            429: components["responses"]["TooManyRequests"];
            default: components["responses"]["Unexpected"];
        };
    };
    getPasswordResetToken: {
        parameters: {
            query?: never;
            header: {
                /** @description Version of the core API contract the client speaks. Must be `1`. */
                "cosafe-core-api-version": components["parameters"]["ApiVersionHeader"];
                /**
                 * @description The token from the link emailed to the user. It travels in this header (and in the body of the POST that uses
                 *     it), never in a URL: URLs are kept by proxies, load balancers and access logs. A `token` in the query string
                 *     answers `400 BAD_REQUEST` (an unknown query parameter) before the token is looked at. The sign-in app sends it
                 *     only to the region the link names (`region` in the link).
                 */
                "cosafe-password-token": components["parameters"]["PasswordTokenHeader"];
            };
            path: {
                /** @description The user id. */
                userId: components["parameters"]["UserId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The state of the token. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PasswordTokenState"];
                };
            };
            400: components["responses"]["BadRequest"];
            429: components["responses"]["TooManyRequests"];
            default: components["responses"]["Unexpected"];
        };
    };
    resetPassword: {
        parameters: {
            query?: never;
            header: {
                /** @description Version of the core API contract the client speaks. Must be `1`. */
                "cosafe-core-api-version": components["parameters"]["ApiVersionHeader"];
            };
            path: {
                /** @description The user id. */
                userId: components["parameters"]["UserId"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["ResetPasswordRequest"];
            };
        };
        responses: {
            /** @description The password is replaced and the user's other sessions are revoked. */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /**
             * @description The request breaks the contract or the password breaks a password rule or is too common or breached
             *     (BAD_REQUEST, rule `PASSWORD_ON_BREACH_LIST`: see NewPassword), or the token is unknown, not this user's or
             *     already used (USER_PASSWORD_SET_TOKEN_INVALID).
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The reset link is older than 30 minutes (USER_PASSWORD_SET_TOKEN_EXPIRED). */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            429: components["responses"]["TooManyRequests"];
            default: components["responses"]["Unexpected"];
        };
    };
    listMemberSessions: {
        parameters: {
            query?: {
                /** @description Page size. */
                limit?: components["parameters"]["Limit"];
                /** @description Number of items to skip. */
                offset?: components["parameters"]["Offset"];
            };
            header: {
                /** @description Version of the core API contract the client speaks. Must be `1`. */
                "cosafe-core-api-version": components["parameters"]["ApiVersionHeader"];
                /** @description The tenant the call acts in; the signed-in user must belong to it, else `403 FORBIDDEN`. */
                "cosafe-tenant-id": components["parameters"]["TenantIdHeader"];
            };
            path: {
                /** @description The user id. */
                userId: components["parameters"]["UserId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of the member's live sessions. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ActiveSessionList"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            default: components["responses"]["Unexpected"];
        };
    };
    deleteMemberSessions: {
        parameters: {
            query?: never;
            header: {
                /** @description Version of the core API contract the client speaks. Must be `1`. */
                "cosafe-core-api-version": components["parameters"]["ApiVersionHeader"];
                /** @description The tenant the call acts in; the signed-in user must belong to it, else `403 FORBIDDEN`. */
                "cosafe-tenant-id": components["parameters"]["TenantIdHeader"];
            };
            path: {
                /** @description The user id. */
                userId: components["parameters"]["UserId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The member's sessions have ended. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["EndedSessions"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            /**
             * @description The caller does not administer the tenant, or the member also belongs to a tenant the caller does not
             *     administer (FORBIDDEN).
             */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            404: components["responses"]["NotFound"];
            default: components["responses"]["Unexpected"];
        };
    };
    deleteMemberSession: {
        parameters: {
            query?: never;
            header: {
                /** @description Version of the core API contract the client speaks. Must be `1`. */
                "cosafe-core-api-version": components["parameters"]["ApiVersionHeader"];
                /** @description The tenant the call acts in; the signed-in user must belong to it, else `403 FORBIDDEN`. */
                "cosafe-tenant-id": components["parameters"]["TenantIdHeader"];
            };
            path: {
                /** @description The user id. */
                userId: components["parameters"]["UserId"];
                /** @description The id of one of the member's sessions (see `GET /users/{userId}/sessions`). */
                sessionId: components["parameters"]["MemberSessionId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The session has ended. */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            default: components["responses"]["Unexpected"];
        };
    };
    listGroups: {
        parameters: {
            query?: {
                /**
                 * @description Only groups with at least one of these functions enabled, comma-separated
                 *     (e.g. `function[in]=checklists,documents`).
                 */
                "function[in]"?: ("checklists" | "documents" | "panic_button" | "lone_worker_timer" | "im_ok")[];
                /**
                 * @description Only items whose name contains this text, case-insensitively. `%` and `_` are matched as literal characters,
                 *     not as wildcards.
                 */
                "name[match]"?: components["parameters"]["NameMatch"];
                /** @description Only groups with at least this many members. */
                "membersCount[gte]"?: number;
                /** @description Only groups this user is a member of. */
                memberUserId?: components["schemas"]["Id"];
                /** @description Page size. */
                limit?: components["parameters"]["Limit"];
                /** @description Number of items to skip. */
                offset?: components["parameters"]["Offset"];
            };
            header: {
                /** @description Version of the core API contract the client speaks. Must be `1`. */
                "cosafe-core-api-version": components["parameters"]["ApiVersionHeader"];
                /** @description The tenant the call acts in; the signed-in user must belong to it, else `403 FORBIDDEN`. */
                "cosafe-tenant-id": components["parameters"]["TenantIdHeader"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of the groups the caller may see. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["GroupList"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            default: components["responses"]["Unexpected"];
        };
    };
    getGroup: {
        parameters: {
            query?: never;
            header: {
                /** @description Version of the core API contract the client speaks. Must be `1`. */
                "cosafe-core-api-version": components["parameters"]["ApiVersionHeader"];
                /** @description The tenant the call acts in; the signed-in user must belong to it, else `403 FORBIDDEN`. */
                "cosafe-tenant-id": components["parameters"]["TenantIdHeader"];
            };
            path: {
                /** @description The group id. */
                groupId: components["parameters"]["GroupId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The group. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Group"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            default: components["responses"]["Unexpected"];
        };
    };
    listGroupMembers: {
        parameters: {
            query?: {
                /** @description Sort field and direction (`sort=name:asc`; the colon may be sent as is or as `%3A`). */
                sort?: "name:asc" | "name:desc" | "title:asc" | "title:desc";
                /**
                 * @description Only items whose name contains this text, case-insensitively. `%` and `_` are matched as literal characters,
                 *     not as wildcards.
                 */
                "name[match]"?: components["parameters"]["NameMatch"];
                /** @description Page size. */
                limit?: components["parameters"]["Limit"];
                /** @description Number of items to skip. */
                offset?: components["parameters"]["Offset"];
            };
            header: {
                /** @description Version of the core API contract the client speaks. Must be `1`. */
                "cosafe-core-api-version": components["parameters"]["ApiVersionHeader"];
                /** @description The tenant the call acts in; the signed-in user must belong to it, else `403 FORBIDDEN`. */
                "cosafe-tenant-id": components["parameters"]["TenantIdHeader"];
            };
            path: {
                /** @description The group id. */
                groupId: components["parameters"]["GroupId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of the group's members. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["GroupMemberList"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            default: components["responses"]["Unexpected"];
        };
    };
    listMeetingRooms: {
        parameters: {
            query?: {
                /** @description `active`: only active rooms. */
                status?: "active";
                /** @description Page size. */
                limit?: components["parameters"]["Limit"];
                /** @description Number of items to skip. */
                offset?: components["parameters"]["Offset"];
            };
            header: {
                /** @description Version of the core API contract the client speaks. Must be `1`. */
                "cosafe-core-api-version": components["parameters"]["ApiVersionHeader"];
                /** @description The tenant the call acts in; the signed-in user must belong to it, else `403 FORBIDDEN`. */
                "cosafe-tenant-id": components["parameters"]["TenantIdHeader"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of meeting rooms. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MeetingRoomList"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            default: components["responses"]["Unexpected"];
        };
    };
    listApiKeys: {
        parameters: {
            query?: {
                /** @description Page size. */
                limit?: components["parameters"]["Limit"];
                /** @description Number of items to skip. */
                offset?: components["parameters"]["Offset"];
            };
            header: {
                /** @description Version of the core API contract the client speaks. Must be `1`. */
                "cosafe-core-api-version": components["parameters"]["ApiVersionHeader"];
                /** @description The tenant the call acts in; the signed-in user must belong to it, else `403 FORBIDDEN`. */
                "cosafe-tenant-id": components["parameters"]["TenantIdHeader"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of api keys, without their secrets. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiKeyList"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            default: components["responses"]["Unexpected"];
        };
    };
    createApiKey: {
        parameters: {
            query?: never;
            header: {
                /** @description Version of the core API contract the client speaks. Must be `1`. */
                "cosafe-core-api-version": components["parameters"]["ApiVersionHeader"];
                /** @description The tenant the call acts in; the signed-in user must belong to it, else `403 FORBIDDEN`. */
                "cosafe-tenant-id": components["parameters"]["TenantIdHeader"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateApiKeyRequest"];
            };
        };
        responses: {
            /** @description The new api key with its secret, shown only here. */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CreatedApiKey"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            /** @description The tenant already has the maximum of 25 api keys (LIMIT_REACHED). */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            default: components["responses"]["Unexpected"];
        };
    };
    deleteApiKey: {
        parameters: {
            query?: never;
            header: {
                /** @description Version of the core API contract the client speaks. Must be `1`. */
                "cosafe-core-api-version": components["parameters"]["ApiVersionHeader"];
                /** @description The tenant the call acts in; the signed-in user must belong to it, else `403 FORBIDDEN`. */
                "cosafe-tenant-id": components["parameters"]["TenantIdHeader"];
            };
            path: {
                /** @description The api key id (a UUID; anything else answers `400 BAD_REQUEST`). */
                apiKeyId: components["parameters"]["ApiKeyId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The api key is deleted. */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            default: components["responses"]["Unexpected"];
        };
    };
    listContacts: {
        parameters: {
            query?: {
                /** @description Only contacts of this account. */
                accountId?: components["schemas"]["Id"];
                /** @description Only contacts of this type. */
                type?: components["schemas"]["ContactType"];
                /** @description Page size. */
                limit?: components["parameters"]["Limit"];
                /** @description Number of items to skip. */
                offset?: components["parameters"]["Offset"];
            };
            header: {
                /** @description Version of the core API contract the client speaks. Must be `1`. */
                "cosafe-core-api-version": components["parameters"]["ApiVersionHeader"];
                /** @description The tenant the call acts in; the signed-in user must belong to it, else `403 FORBIDDEN`. */
                "cosafe-tenant-id": components["parameters"]["TenantIdHeader"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of contacts. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ContactList"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            default: components["responses"]["Unexpected"];
        };
    };
    createContact: {
        parameters: {
            query?: never;
            header: {
                /** @description Version of the core API contract the client speaks. Must be `1`. */
                "cosafe-core-api-version": components["parameters"]["ApiVersionHeader"];
                /** @description The tenant the call acts in; the signed-in user must belong to it, else `403 FORBIDDEN`. */
                "cosafe-tenant-id": components["parameters"]["TenantIdHeader"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateContactRequest"];
            };
        };
        responses: {
            /** @description The new contact. */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Contact"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            /** @description The caller may not change contacts (INSUFFICIENT_PRIVILEGES) or does not belong to the tenant (FORBIDDEN). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The account is not one of the tenant's (NOT_FOUND). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            default: components["responses"]["Unexpected"];
        };
    };
    deleteContact: {
        parameters: {
            query?: never;
            header: {
                /** @description Version of the core API contract the client speaks. Must be `1`. */
                "cosafe-core-api-version": components["parameters"]["ApiVersionHeader"];
                /** @description The tenant the call acts in; the signed-in user must belong to it, else `403 FORBIDDEN`. */
                "cosafe-tenant-id": components["parameters"]["TenantIdHeader"];
            };
            path: {
                /** @description The contact id. */
                contactId: components["parameters"]["ContactId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The contact is deleted. */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            /** @description The caller may not change contacts (INSUFFICIENT_PRIVILEGES) or does not belong to the tenant (FORBIDDEN). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            404: components["responses"]["NotFound"];
            default: components["responses"]["Unexpected"];
        };
    };
    updateContact: {
        parameters: {
            query?: never;
            header: {
                /** @description Version of the core API contract the client speaks. Must be `1`. */
                "cosafe-core-api-version": components["parameters"]["ApiVersionHeader"];
                /** @description The tenant the call acts in; the signed-in user must belong to it, else `403 FORBIDDEN`. */
                "cosafe-tenant-id": components["parameters"]["TenantIdHeader"];
            };
            path: {
                /** @description The contact id. */
                contactId: components["parameters"]["ContactId"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["UpdateContactRequest"];
            };
        };
        responses: {
            /** @description The contact after the change. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Contact"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            /** @description The caller may not change contacts (INSUFFICIENT_PRIVILEGES) or does not belong to the tenant (FORBIDDEN). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            404: components["responses"]["NotFound"];
            default: components["responses"]["Unexpected"];
        };
    };
    listCecGroups: {
        parameters: {
            query?: {
                /** @description Page size. */
                limit?: components["parameters"]["Limit"];
                /** @description Number of items to skip. */
                offset?: components["parameters"]["Offset"];
            };
            header: {
                /** @description Version of the core API contract the client speaks. Must be `1`. */
                "cosafe-core-api-version": components["parameters"]["ApiVersionHeader"];
                /** @description The tenant the call acts in; the signed-in user must belong to it, else `403 FORBIDDEN`. */
                "cosafe-tenant-id": components["parameters"]["TenantIdHeader"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of groups. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CecGroupList"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            /**
             * @description The caller lacks the `cec.maySend` permission (INSUFFICIENT_PRIVILEGES) or does not belong to the tenant
             *     (FORBIDDEN).
             */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            default: components["responses"]["Unexpected"];
        };
    };
    listCecTemplates: {
        parameters: {
            query?: {
                /** @description Page size. */
                limit?: components["parameters"]["Limit"];
                /** @description Number of items to skip. */
                offset?: components["parameters"]["Offset"];
            };
            header: {
                /** @description Version of the core API contract the client speaks. Must be `1`. */
                "cosafe-core-api-version": components["parameters"]["ApiVersionHeader"];
                /** @description The tenant the call acts in; the signed-in user must belong to it, else `403 FORBIDDEN`. */
                "cosafe-tenant-id": components["parameters"]["TenantIdHeader"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of templates. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CecTemplateList"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            /**
             * @description The caller lacks the `cec.maySend` permission (INSUFFICIENT_PRIVILEGES) or does not belong to the tenant
             *     (FORBIDDEN).
             */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            default: components["responses"]["Unexpected"];
        };
    };
    listCecMessages: {
        parameters: {
            query?: {
                /**
                 * @description Only messages whose content contains this text, ignoring case. `%` and `_` are matched literally (they are not
                 *     wildcards).
                 */
                "content[match]"?: components["parameters"]["CecContentMatch"];
                /**
                 * @description Only messages sent to at least one of these external communication groups, comma-separated
                 *     (`externalCommunicationGroupIds=31,32`). Ids that are not groups of the tenant match nothing.
                 */
                externalCommunicationGroupIds?: components["parameters"]["CecGroupIdsFilter"];
                /** @description Page size. */
                limit?: components["parameters"]["Limit"];
                /** @description Number of items to skip. */
                offset?: components["parameters"]["Offset"];
            };
            header: {
                /** @description Version of the core API contract the client speaks. Must be `1`. */
                "cosafe-core-api-version": components["parameters"]["ApiVersionHeader"];
                /** @description The tenant the call acts in; the signed-in user must belong to it, else `403 FORBIDDEN`. */
                "cosafe-tenant-id": components["parameters"]["TenantIdHeader"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of messages, newest first. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CecMessageList"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            /**
             * @description The caller lacks the `cec.maySend` permission (INSUFFICIENT_PRIVILEGES) or does not belong to the tenant
             *     (FORBIDDEN).
             */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            default: components["responses"]["Unexpected"];
        };
    };
    sendCecMessage: {
        parameters: {
            query?: never;
            header: {
                /** @description Version of the core API contract the client speaks. Must be `1`. */
                "cosafe-core-api-version": components["parameters"]["ApiVersionHeader"];
                /** @description The tenant the call acts in; the signed-in user must belong to it, else `403 FORBIDDEN`. */
                "cosafe-tenant-id": components["parameters"]["TenantIdHeader"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["SendCecMessageRequest"];
            };
        };
        responses: {
            /** @description The stored message; delivery runs in the background. */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CecMessage"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            /**
             * @description The caller lacks the `cec.maySend` permission (INSUFFICIENT_PRIVILEGES) or does not belong to the tenant
             *     (FORBIDDEN), or a group does not exist, belongs to another tenant or may not be sent to
             *     (CEC_MESSAGE_GROUP_FORBIDDEN).
             */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The tenant has no sender settings for external communication (CEC_TENANT_CONFIGURATION_INCOMPLETE). */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            429: components["responses"]["ExternalMessageQuotaExceeded"];
            default: components["responses"]["Unexpected"];
        };
    };
    getCecMessage: {
        parameters: {
            query?: never;
            header: {
                /** @description Version of the core API contract the client speaks. Must be `1`. */
                "cosafe-core-api-version": components["parameters"]["ApiVersionHeader"];
                /** @description The tenant the call acts in; the signed-in user must belong to it, else `403 FORBIDDEN`. */
                "cosafe-tenant-id": components["parameters"]["TenantIdHeader"];
            };
            path: {
                /** @description The external communication message id. */
                messageId: components["parameters"]["CecMessageId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The message. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CecMessage"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            /**
             * @description The caller lacks the `cec.maySend` permission (INSUFFICIENT_PRIVILEGES) or does not belong to the tenant
             *     (FORBIDDEN).
             */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No message with that id exists in the tenant (CEC_MESSAGE_NOT_FOUND). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            default: components["responses"]["Unexpected"];
        };
    };
    listCecMessageRecipients: {
        parameters: {
            query?: {
                /** @description Page size. */
                limit?: components["parameters"]["Limit"];
                /** @description Number of items to skip. */
                offset?: components["parameters"]["Offset"];
            };
            header: {
                /** @description Version of the core API contract the client speaks. Must be `1`. */
                "cosafe-core-api-version": components["parameters"]["ApiVersionHeader"];
                /** @description The tenant the call acts in; the signed-in user must belong to it, else `403 FORBIDDEN`. */
                "cosafe-tenant-id": components["parameters"]["TenantIdHeader"];
            };
            path: {
                /** @description The external communication message id. */
                messageId: components["parameters"]["CecMessageId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of recipients. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CecRecipientList"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            /**
             * @description The caller lacks the `cec.maySend` permission (INSUFFICIENT_PRIVILEGES) or does not belong to the tenant
             *     (FORBIDDEN).
             */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No message with that id exists in the tenant (CEC_MESSAGE_NOT_FOUND). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            default: components["responses"]["Unexpected"];
        };
    };
    liftCecCeiling: {
        parameters: {
            query?: never;
            header: {
                /** @description Version of the core API contract the client speaks. Must be `1`. */
                "cosafe-core-api-version": components["parameters"]["ApiVersionHeader"];
                /** @description The tenant the call acts in; the signed-in user must belong to it, else `403 FORBIDDEN`. */
                "cosafe-tenant-id": components["parameters"]["TenantIdHeader"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["LiftCecCeilingRequest"];
            };
        };
        responses: {
            /** @description The ceiling is lifted until `liftedUntil`. */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CecCeilingLift"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            /** @description The caller is not an administrator of the tenant, or does not belong to it (FORBIDDEN). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            default: components["responses"]["Unexpected"];
        };
    };
    listPersonalAlarms: {
        parameters: {
            query?: {
                /** @description `active`: only alarms that are active. Without it, all alarms are listed. */
                status?: components["parameters"]["PersonalAlarmStatusFilter"];
                /** @description Page size. */
                limit?: components["parameters"]["Limit"];
                /** @description Number of items to skip. */
                offset?: components["parameters"]["Offset"];
            };
            header: {
                /** @description Version of the core API contract the client speaks. Must be `1`. */
                "cosafe-core-api-version": components["parameters"]["ApiVersionHeader"];
                /** @description The tenant the call acts in; the signed-in user must belong to it, else `403 FORBIDDEN`. */
                "cosafe-tenant-id": components["parameters"]["TenantIdHeader"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of personal alarms. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PersonalAlarmList"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            default: components["responses"]["Unexpected"];
        };
    };
    createPersonalAlarm: {
        parameters: {
            query?: never;
            header: {
                /** @description Version of the core API contract the client speaks. Must be `1`. */
                "cosafe-core-api-version": components["parameters"]["ApiVersionHeader"];
                /** @description The tenant the call acts in; the signed-in user must belong to it, else `403 FORBIDDEN`. */
                "cosafe-tenant-id": components["parameters"]["TenantIdHeader"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreatePersonalAlarmRequest"];
            };
        };
        responses: {
            /** @description The created alarm. */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PersonalAlarm"];
                };
            };
            /**
             * @description The request breaks the contract (BAD_REQUEST) or none of the given users and groups is a valid recipient
             *     in the tenant (PERSONAL_ALARM_NOT_FOUND_RECIPIENTS).
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            /** @description The device already has an active alarm (PERSONAL_ALARM_CONFLICT). */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            429: components["responses"]["AlarmQuotaExceeded"];
            default: components["responses"]["Unexpected"];
        };
    };
    getPersonalAlarm: {
        parameters: {
            query?: never;
            header: {
                /** @description Version of the core API contract the client speaks. Must be `1`. */
                "cosafe-core-api-version": components["parameters"]["ApiVersionHeader"];
                /** @description The tenant the call acts in; the signed-in user must belong to it, else `403 FORBIDDEN`. */
                "cosafe-tenant-id": components["parameters"]["TenantIdHeader"];
            };
            path: {
                /** @description The personal alarm id. */
                id: components["parameters"]["PersonalAlarmId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The alarm. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PersonalAlarm"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            /** @description No personal alarm with that id exists in the tenant (PERSONAL_ALARM_NOT_FOUND). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            default: components["responses"]["Unexpected"];
        };
    };
    updatePersonalAlarm: {
        parameters: {
            query?: never;
            header: {
                /** @description Version of the core API contract the client speaks. Must be `1`. */
                "cosafe-core-api-version": components["parameters"]["ApiVersionHeader"];
                /** @description The tenant the call acts in; the signed-in user must belong to it, else `403 FORBIDDEN`. */
                "cosafe-tenant-id": components["parameters"]["TenantIdHeader"];
            };
            path: {
                /** @description The personal alarm id. */
                id: components["parameters"]["PersonalAlarmId"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["UpdatePersonalAlarmRequest"];
            };
        };
        responses: {
            /** @description The changed alarm. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PersonalAlarm"];
                };
            };
            /**
             * @description The request breaks the contract (BAD_REQUEST) or none of the given users and groups is a valid recipient
             *     in the tenant (PERSONAL_ALARM_NOT_FOUND_RECIPIENTS).
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            /** @description No personal alarm with that id exists in the tenant (PERSONAL_ALARM_NOT_FOUND). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The alarm has already been dispatched and can no longer be changed (PERSONAL_ALARM_CONFLICT). */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            default: components["responses"]["Unexpected"];
        };
    };
    activatePersonalAlarm: {
        parameters: {
            query?: never;
            header: {
                /** @description Version of the core API contract the client speaks. Must be `1`. */
                "cosafe-core-api-version": components["parameters"]["ApiVersionHeader"];
                /** @description The tenant the call acts in; the signed-in user must belong to it, else `403 FORBIDDEN`. */
                "cosafe-tenant-id": components["parameters"]["TenantIdHeader"];
            };
            path: {
                /** @description The personal alarm id. */
                id: components["parameters"]["PersonalAlarmId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The activated alarm. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PersonalAlarm"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            /** @description No personal alarm with that id exists in the tenant (PERSONAL_ALARM_NOT_FOUND). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /**
             * @description Another alarm of the same device is active, or this alarm has already been dispatched
             *     (PERSONAL_ALARM_CONFLICT).
             */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            default: components["responses"]["Unexpected"];
        };
    };
    deactivatePersonalAlarm: {
        parameters: {
            query?: never;
            header: {
                /** @description Version of the core API contract the client speaks. Must be `1`. */
                "cosafe-core-api-version": components["parameters"]["ApiVersionHeader"];
                /** @description The tenant the call acts in; the signed-in user must belong to it, else `403 FORBIDDEN`. */
                "cosafe-tenant-id": components["parameters"]["TenantIdHeader"];
            };
            path: {
                /** @description The personal alarm id. */
                id: components["parameters"]["PersonalAlarmId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The deactivated alarm. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PersonalAlarm"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            /** @description No personal alarm with that id exists in the tenant (PERSONAL_ALARM_NOT_FOUND). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            default: components["responses"]["Unexpected"];
        };
    };
    getOidcSettings: {
        parameters: {
            query?: never;
            header: {
                /** @description Version of the core API contract the client speaks. Must be `1`. */
                "cosafe-core-api-version": components["parameters"]["ApiVersionHeader"];
                /** @description The tenant the call acts in; the signed-in user must belong to it, else `403 FORBIDDEN`. */
                "cosafe-tenant-id": components["parameters"]["TenantIdHeader"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The tenant's OIDC settings, without the client secret. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OidcSettings"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            /** @description The tenant has no OIDC settings (NOT_FOUND). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            default: components["responses"]["Unexpected"];
        };
    };
    putOidcSettings: {
        parameters: {
            query?: never;
            header: {
                /** @description Version of the core API contract the client speaks. Must be `1`. */
                "cosafe-core-api-version": components["parameters"]["ApiVersionHeader"];
                /** @description The tenant the call acts in; the signed-in user must belong to it, else `403 FORBIDDEN`. */
                "cosafe-tenant-id": components["parameters"]["TenantIdHeader"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["OidcSettingsInput"];
            };
        };
        responses: {
            /** @description The stored settings, without the client secret. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OidcSettings"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            default: components["responses"]["Unexpected"];
        };
    };
    listSecurityEvents: {
        parameters: {
            query?: {
                /** @description Keeps events about this member's account. */
                userId?: components["parameters"]["SecurityEventUserFilter"];
                /** @description Keeps events of these kinds (repeat the parameter for several). */
                kind?: components["parameters"]["SecurityEventKindFilter"];
                /** @description Keeps events at or after this instant. */
                from?: components["parameters"]["SecurityEventFrom"];
                /** @description Keeps events before this instant. */
                to?: components["parameters"]["SecurityEventTo"];
                /** @description The `nextCursor` of the previous page; the list continues with older events. */
                cursor?: components["parameters"]["SecurityEventCursor"];
                /** @description Page size. */
                limit?: components["parameters"]["SecurityEventLimit"];
            };
            header: {
                /** @description Version of the core API contract the client speaks. Must be `1`. */
                "cosafe-core-api-version": components["parameters"]["ApiVersionHeader"];
                /** @description The tenant the call acts in; the signed-in user must belong to it, else `403 FORBIDDEN`. */
                "cosafe-tenant-id": components["parameters"]["TenantIdHeader"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of the tenant's security events, newest first. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SecurityEventPage"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            default: components["responses"]["Unexpected"];
        };
    };
    listOwnSecurityEvents: {
        parameters: {
            query?: {
                /** @description Keeps events of these kinds (repeat the parameter for several). */
                kind?: components["parameters"]["SecurityEventKindFilter"];
                /** @description Keeps events at or after this instant. */
                from?: components["parameters"]["SecurityEventFrom"];
                /** @description Keeps events before this instant. */
                to?: components["parameters"]["SecurityEventTo"];
                /** @description The `nextCursor` of the previous page; the list continues with older events. */
                cursor?: components["parameters"]["SecurityEventCursor"];
                /** @description Page size. */
                limit?: components["parameters"]["SecurityEventLimit"];
            };
            header: {
                /** @description Version of the core API contract the client speaks. Must be `1`. */
                "cosafe-core-api-version": components["parameters"]["ApiVersionHeader"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of the caller's security events, newest first. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SecurityEventPage"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            default: components["responses"]["Unexpected"];
        };
    };
    getScimServiceProviderConfig: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description What this SCIM service supports. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/scim+json": components["schemas"]["ScimServiceProviderConfig"];
                };
            };
            400: components["responses"]["ScimError"];
            401: components["responses"]["ScimError"];
            default: components["responses"]["ScimError"];
        };
    };
    listScimResourceTypes: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The resource types. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/scim+json": components["schemas"]["ScimDiscoveryList"];
                };
            };
            400: components["responses"]["ScimError"];
            401: components["responses"]["ScimError"];
            default: components["responses"]["ScimError"];
        };
    };
    getScimResourceType: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The resource type's id, `User` or `Group` (as written); any other answers `404`.
                 * @example User
                 */
                resourceTypeId: components["parameters"]["ScimResourceTypeId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description One SCIM resource type. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/scim+json": components["schemas"]["ScimResourceType"];
                };
            };
            400: components["responses"]["ScimError"];
            401: components["responses"]["ScimError"];
            404: components["responses"]["ScimError"];
            default: components["responses"]["ScimError"];
        };
    };
    listScimSchemas: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The schemas. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/scim+json": components["schemas"]["ScimDiscoveryList"];
                };
            };
            400: components["responses"]["ScimError"];
            401: components["responses"]["ScimError"];
            default: components["responses"]["ScimError"];
        };
    };
    getScimSchema: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The schema's URN, `urn:ietf:params:scim:schemas:core:2.0:User` or `...:Group` (case-insensitive, as RFC 7643
                 *     section 2.1 reads schema URIs); any other answers `404`.
                 * @example urn:ietf:params:scim:schemas:core:2.0:User
                 */
                schemaUrn: components["parameters"]["ScimSchemaUrn"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description One SCIM schema. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/scim+json": components["schemas"]["ScimSchema"];
                };
            };
            400: components["responses"]["ScimError"];
            401: components["responses"]["ScimError"];
            404: components["responses"]["ScimError"];
            default: components["responses"]["ScimError"];
        };
    };
    listScimUsers: {
        parameters: {
            query?: {
                /**
                 * @description A SCIM filter on users; this service supports `<attribute> eq "<value>"` on `userName`, `externalId`, `id`,
                 *     `emails.value` and `displayName` (case-insensitive). Anything else answers
                 *     `400` with `scimType: invalidFilter`, as does a quoted value with an invalid escape. Reserved characters may
                 *     appear unencoded (`@`, `+` for a space, as RFC 7644 clients send them).
                 */
                filter?: components["parameters"]["ScimFilter"];
                /** @description 1-based index of the first result; values below 1 count as 1. */
                startIndex?: components["parameters"]["ScimStartIndex"];
                /** @description Results per page; at most 100 are returned, negative values count as 0. */
                count?: components["parameters"]["ScimCount"];
                /**
                 * @description Comma-separated attributes to return instead of the default set (RFC 7644 section 3.4.2.5, 3.9): names are
                 *     case-insensitive, may carry the schema URN and may name one sub-attribute (`name.givenName`,
                 *     `emails.type`, `meta.location`). `id` and `schemas` are always returned, and `value` of each item of a
                 *     multi-valued attribute. Names that are not attributes of the resource select nothing; an empty value is the
                 *     same as none. With both parameters, `attributes` decides.
                 */
                attributes?: components["parameters"]["ScimAttributes"];
                /**
                 * @description Comma-separated attributes to leave out of the default set (RFC 7644 section 3.4.2.5, 3.9), named as for
                 *     `attributes`; `id` and `schemas` are never left out, nor `value` of the items of a multi-valued attribute.
                 *     Names that are not attributes of the resource exclude nothing; an empty value is the same as none.
                 */
                excludedAttributes?: components["parameters"]["ScimExcludedAttributes"];
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of users. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/scim+json": components["schemas"]["ScimUserList"];
                };
            };
            400: components["responses"]["ScimError"];
            401: components["responses"]["ScimError"];
            default: components["responses"]["ScimError"];
        };
    };
    createScimUser: {
        parameters: {
            query?: {
                /**
                 * @description Comma-separated attributes to return instead of the default set (RFC 7644 section 3.4.2.5, 3.9): names are
                 *     case-insensitive, may carry the schema URN and may name one sub-attribute (`name.givenName`,
                 *     `emails.type`, `meta.location`). `id` and `schemas` are always returned, and `value` of each item of a
                 *     multi-valued attribute. Names that are not attributes of the resource select nothing; an empty value is the
                 *     same as none. With both parameters, `attributes` decides.
                 */
                attributes?: components["parameters"]["ScimAttributes"];
                /**
                 * @description Comma-separated attributes to leave out of the default set (RFC 7644 section 3.4.2.5, 3.9), named as for
                 *     `attributes`; `id` and `schemas` are never left out, nor `value` of the items of a multi-valued attribute.
                 *     Names that are not attributes of the resource exclude nothing; an empty value is the same as none.
                 */
                excludedAttributes?: components["parameters"]["ScimExcludedAttributes"];
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/scim+json": components["schemas"]["ScimUserInput"];
                "application/json": components["schemas"]["ScimUserInput"];
            };
        };
        responses: {
            /** @description The created user. */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/scim+json": components["schemas"]["ScimUser"];
                };
            };
            400: components["responses"]["ScimError"];
            401: components["responses"]["ScimError"];
            409: components["responses"]["ScimError"];
            default: components["responses"]["ScimError"];
        };
    };
    searchScimUsers: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "schemas": [
                 *         "urn:ietf:params:scim:api:messages:2.0:SearchRequest"
                 *       ],
                 *       "filter": "userName eq \"anna@demo.test\"",
                 *       "attributes": [
                 *         "userName",
                 *         "name.givenName"
                 *       ],
                 *       "startIndex": 1,
                 *       "count": 10
                 *     }
                 */
                "application/scim+json": components["schemas"]["ScimSearchRequest"];
                /**
                 * @example {
                 *       "schemas": [
                 *         "urn:ietf:params:scim:api:messages:2.0:SearchRequest"
                 *       ],
                 *       "filter": "userName eq \"anna@demo.test\"",
                 *       "attributes": [
                 *         "userName",
                 *         "name.givenName"
                 *       ],
                 *       "startIndex": 1,
                 *       "count": 10
                 *     }
                 */
                "application/json": components["schemas"]["ScimSearchRequest"];
            };
        };
        responses: {
            /** @description A page of users. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/scim+json": components["schemas"]["ScimUserList"];
                };
            };
            400: components["responses"]["ScimError"];
            401: components["responses"]["ScimError"];
            default: components["responses"]["ScimError"];
        };
    };
    getScimUser: {
        parameters: {
            query?: {
                /**
                 * @description Comma-separated attributes to return instead of the default set (RFC 7644 section 3.4.2.5, 3.9): names are
                 *     case-insensitive, may carry the schema URN and may name one sub-attribute (`name.givenName`,
                 *     `emails.type`, `meta.location`). `id` and `schemas` are always returned, and `value` of each item of a
                 *     multi-valued attribute. Names that are not attributes of the resource select nothing; an empty value is the
                 *     same as none. With both parameters, `attributes` decides.
                 */
                attributes?: components["parameters"]["ScimAttributes"];
                /**
                 * @description Comma-separated attributes to leave out of the default set (RFC 7644 section 3.4.2.5, 3.9), named as for
                 *     `attributes`; `id` and `schemas` are never left out, nor `value` of the items of a multi-valued attribute.
                 *     Names that are not attributes of the resource exclude nothing; an empty value is the same as none.
                 */
                excludedAttributes?: components["parameters"]["ScimExcludedAttributes"];
            };
            header?: never;
            path: {
                /** @description The user's SCIM id; an id that is not one of this tenant's users answers `404`. */
                scimUserId: components["parameters"]["ScimUserId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The user. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/scim+json": components["schemas"]["ScimUser"];
                };
            };
            400: components["responses"]["ScimError"];
            401: components["responses"]["ScimError"];
            404: components["responses"]["ScimError"];
            default: components["responses"]["ScimError"];
        };
    };
    replaceScimUser: {
        parameters: {
            query?: {
                /**
                 * @description Comma-separated attributes to return instead of the default set (RFC 7644 section 3.4.2.5, 3.9): names are
                 *     case-insensitive, may carry the schema URN and may name one sub-attribute (`name.givenName`,
                 *     `emails.type`, `meta.location`). `id` and `schemas` are always returned, and `value` of each item of a
                 *     multi-valued attribute. Names that are not attributes of the resource select nothing; an empty value is the
                 *     same as none. With both parameters, `attributes` decides.
                 */
                attributes?: components["parameters"]["ScimAttributes"];
                /**
                 * @description Comma-separated attributes to leave out of the default set (RFC 7644 section 3.4.2.5, 3.9), named as for
                 *     `attributes`; `id` and `schemas` are never left out, nor `value` of the items of a multi-valued attribute.
                 *     Names that are not attributes of the resource exclude nothing; an empty value is the same as none.
                 */
                excludedAttributes?: components["parameters"]["ScimExcludedAttributes"];
            };
            header?: never;
            path: {
                /** @description The user's SCIM id; an id that is not one of this tenant's users answers `404`. */
                scimUserId: components["parameters"]["ScimUserId"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/scim+json": components["schemas"]["ScimUserInput"];
                "application/json": components["schemas"]["ScimUserInput"];
            };
        };
        responses: {
            /** @description The user after the change. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/scim+json": components["schemas"]["ScimUser"];
                };
            };
            400: components["responses"]["ScimError"];
            401: components["responses"]["ScimError"];
            404: components["responses"]["ScimError"];
            409: components["responses"]["ScimError"];
            default: components["responses"]["ScimError"];
        };
    };
    deleteScimUser: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The user's SCIM id; an id that is not one of this tenant's users answers `404`. */
                scimUserId: components["parameters"]["ScimUserId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The user is removed from the tenant. */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["ScimError"];
            401: components["responses"]["ScimError"];
            404: components["responses"]["ScimError"];
            default: components["responses"]["ScimError"];
        };
    };
    patchScimUser: {
        parameters: {
            query?: {
                /**
                 * @description Comma-separated attributes to return instead of the default set (RFC 7644 section 3.4.2.5, 3.9): names are
                 *     case-insensitive, may carry the schema URN and may name one sub-attribute (`name.givenName`,
                 *     `emails.type`, `meta.location`). `id` and `schemas` are always returned, and `value` of each item of a
                 *     multi-valued attribute. Names that are not attributes of the resource select nothing; an empty value is the
                 *     same as none. With both parameters, `attributes` decides.
                 */
                attributes?: components["parameters"]["ScimAttributes"];
                /**
                 * @description Comma-separated attributes to leave out of the default set (RFC 7644 section 3.4.2.5, 3.9), named as for
                 *     `attributes`; `id` and `schemas` are never left out, nor `value` of the items of a multi-valued attribute.
                 *     Names that are not attributes of the resource exclude nothing; an empty value is the same as none.
                 */
                excludedAttributes?: components["parameters"]["ScimExcludedAttributes"];
            };
            header?: never;
            path: {
                /** @description The user's SCIM id; an id that is not one of this tenant's users answers `404`. */
                scimUserId: components["parameters"]["ScimUserId"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "schemas": [
                 *         "urn:ietf:params:scim:api:messages:2.0:PatchOp"
                 *       ],
                 *       "Operations": [
                 *         {
                 *           "op": "Replace",
                 *           "path": "title",
                 *           "value": "Teacher"
                 *         },
                 *         {
                 *           "op": "Replace",
                 *           "path": "active",
                 *           "value": "True"
                 *         }
                 *       ]
                 *     }
                 */
                "application/scim+json": components["schemas"]["ScimPatchRequest"];
                /**
                 * @example {
                 *       "schemas": [
                 *         "urn:ietf:params:scim:api:messages:2.0:PatchOp"
                 *       ],
                 *       "Operations": [
                 *         {
                 *           "op": "Replace",
                 *           "path": "title",
                 *           "value": "Teacher"
                 *         },
                 *         {
                 *           "op": "Replace",
                 *           "path": "active",
                 *           "value": "True"
                 *         }
                 *       ]
                 *     }
                 */
                "application/json": components["schemas"]["ScimPatchRequest"];
            };
        };
        responses: {
            /** @description The user after the change. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/scim+json": components["schemas"]["ScimUser"];
                };
            };
            400: components["responses"]["ScimError"];
            401: components["responses"]["ScimError"];
            404: components["responses"]["ScimError"];
            409: components["responses"]["ScimError"];
            default: components["responses"]["ScimError"];
        };
    };
    listScimGroups: {
        parameters: {
            query?: {
                /**
                 * @description A SCIM filter on groups; this service supports `<attribute> eq "<value>"` on `displayName` (case-insensitive),
                 *     `externalId` and `id`. Anything else answers `400` with `scimType: invalidFilter`, as does a quoted value with
                 *     an invalid escape. Reserved characters may appear unencoded (as RFC 7644 clients send them).
                 */
                filter?: components["parameters"]["ScimGroupFilter"];
                /** @description 1-based index of the first result; values below 1 count as 1. */
                startIndex?: components["parameters"]["ScimStartIndex"];
                /** @description Results per page; at most 100 are returned, negative values count as 0. */
                count?: components["parameters"]["ScimCount"];
                /**
                 * @description Comma-separated attributes to return instead of the default set (RFC 7644 section 3.4.2.5, 3.9): names are
                 *     case-insensitive, may carry the schema URN and may name one sub-attribute (`name.givenName`,
                 *     `emails.type`, `meta.location`). `id` and `schemas` are always returned, and `value` of each item of a
                 *     multi-valued attribute. Names that are not attributes of the resource select nothing; an empty value is the
                 *     same as none. With both parameters, `attributes` decides.
                 */
                attributes?: components["parameters"]["ScimAttributes"];
                /**
                 * @description Comma-separated attributes to leave out of the default set (RFC 7644 section 3.4.2.5, 3.9), named as for
                 *     `attributes`; `id` and `schemas` are never left out, nor `value` of the items of a multi-valued attribute.
                 *     Names that are not attributes of the resource exclude nothing; an empty value is the same as none.
                 */
                excludedAttributes?: components["parameters"]["ScimExcludedAttributes"];
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of groups. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/scim+json": components["schemas"]["ScimGroupList"];
                };
            };
            400: components["responses"]["ScimError"];
            401: components["responses"]["ScimError"];
            default: components["responses"]["ScimError"];
        };
    };
    createScimGroup: {
        parameters: {
            query?: {
                /**
                 * @description Comma-separated attributes to return instead of the default set (RFC 7644 section 3.4.2.5, 3.9): names are
                 *     case-insensitive, may carry the schema URN and may name one sub-attribute (`name.givenName`,
                 *     `emails.type`, `meta.location`). `id` and `schemas` are always returned, and `value` of each item of a
                 *     multi-valued attribute. Names that are not attributes of the resource select nothing; an empty value is the
                 *     same as none. With both parameters, `attributes` decides.
                 */
                attributes?: components["parameters"]["ScimAttributes"];
                /**
                 * @description Comma-separated attributes to leave out of the default set (RFC 7644 section 3.4.2.5, 3.9), named as for
                 *     `attributes`; `id` and `schemas` are never left out, nor `value` of the items of a multi-valued attribute.
                 *     Names that are not attributes of the resource exclude nothing; an empty value is the same as none.
                 */
                excludedAttributes?: components["parameters"]["ScimExcludedAttributes"];
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/scim+json": components["schemas"]["ScimGroupInput"];
                "application/json": components["schemas"]["ScimGroupInput"];
            };
        };
        responses: {
            /** @description The created group. */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/scim+json": components["schemas"]["ScimGroup"];
                };
            };
            400: components["responses"]["ScimError"];
            401: components["responses"]["ScimError"];
            409: components["responses"]["ScimError"];
            default: components["responses"]["ScimError"];
        };
    };
    searchScimGroups: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "schemas": [
                 *         "urn:ietf:params:scim:api:messages:2.0:SearchRequest"
                 *       ],
                 *       "filter": "displayName eq \"Crisis team\"",
                 *       "attributes": [
                 *         "displayName"
                 *       ],
                 *       "startIndex": 1,
                 *       "count": 10
                 *     }
                 */
                "application/scim+json": components["schemas"]["ScimSearchRequest"];
                /**
                 * @example {
                 *       "schemas": [
                 *         "urn:ietf:params:scim:api:messages:2.0:SearchRequest"
                 *       ],
                 *       "filter": "displayName eq \"Crisis team\"",
                 *       "attributes": [
                 *         "displayName"
                 *       ],
                 *       "startIndex": 1,
                 *       "count": 10
                 *     }
                 */
                "application/json": components["schemas"]["ScimSearchRequest"];
            };
        };
        responses: {
            /** @description A page of groups. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/scim+json": components["schemas"]["ScimGroupList"];
                };
            };
            400: components["responses"]["ScimError"];
            401: components["responses"]["ScimError"];
            default: components["responses"]["ScimError"];
        };
    };
    getScimGroup: {
        parameters: {
            query?: {
                /**
                 * @description Comma-separated attributes to return instead of the default set (RFC 7644 section 3.4.2.5, 3.9): names are
                 *     case-insensitive, may carry the schema URN and may name one sub-attribute (`name.givenName`,
                 *     `emails.type`, `meta.location`). `id` and `schemas` are always returned, and `value` of each item of a
                 *     multi-valued attribute. Names that are not attributes of the resource select nothing; an empty value is the
                 *     same as none. With both parameters, `attributes` decides.
                 */
                attributes?: components["parameters"]["ScimAttributes"];
                /**
                 * @description Comma-separated attributes to leave out of the default set (RFC 7644 section 3.4.2.5, 3.9), named as for
                 *     `attributes`; `id` and `schemas` are never left out, nor `value` of the items of a multi-valued attribute.
                 *     Names that are not attributes of the resource exclude nothing; an empty value is the same as none.
                 */
                excludedAttributes?: components["parameters"]["ScimExcludedAttributes"];
            };
            header?: never;
            path: {
                /** @description The group's SCIM id; an id that is not one of this tenant's provisioned groups answers `404`. */
                scimGroupId: components["parameters"]["ScimGroupId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The group. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/scim+json": components["schemas"]["ScimGroup"];
                };
            };
            400: components["responses"]["ScimError"];
            401: components["responses"]["ScimError"];
            404: components["responses"]["ScimError"];
            default: components["responses"]["ScimError"];
        };
    };
    replaceScimGroup: {
        parameters: {
            query?: {
                /**
                 * @description Comma-separated attributes to return instead of the default set (RFC 7644 section 3.4.2.5, 3.9): names are
                 *     case-insensitive, may carry the schema URN and may name one sub-attribute (`name.givenName`,
                 *     `emails.type`, `meta.location`). `id` and `schemas` are always returned, and `value` of each item of a
                 *     multi-valued attribute. Names that are not attributes of the resource select nothing; an empty value is the
                 *     same as none. With both parameters, `attributes` decides.
                 */
                attributes?: components["parameters"]["ScimAttributes"];
                /**
                 * @description Comma-separated attributes to leave out of the default set (RFC 7644 section 3.4.2.5, 3.9), named as for
                 *     `attributes`; `id` and `schemas` are never left out, nor `value` of the items of a multi-valued attribute.
                 *     Names that are not attributes of the resource exclude nothing; an empty value is the same as none.
                 */
                excludedAttributes?: components["parameters"]["ScimExcludedAttributes"];
            };
            header?: never;
            path: {
                /** @description The group's SCIM id; an id that is not one of this tenant's provisioned groups answers `404`. */
                scimGroupId: components["parameters"]["ScimGroupId"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/scim+json": components["schemas"]["ScimGroupInput"];
                "application/json": components["schemas"]["ScimGroupInput"];
            };
        };
        responses: {
            /** @description The group after the change. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/scim+json": components["schemas"]["ScimGroup"];
                };
            };
            400: components["responses"]["ScimError"];
            401: components["responses"]["ScimError"];
            404: components["responses"]["ScimError"];
            409: components["responses"]["ScimError"];
            default: components["responses"]["ScimError"];
        };
    };
    deleteScimGroup: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The group's SCIM id; an id that is not one of this tenant's provisioned groups answers `404`. */
                scimGroupId: components["parameters"]["ScimGroupId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The group is deleted. */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["ScimError"];
            401: components["responses"]["ScimError"];
            404: components["responses"]["ScimError"];
            default: components["responses"]["ScimError"];
        };
    };
    patchScimGroup: {
        parameters: {
            query?: {
                /**
                 * @description Comma-separated attributes to return instead of the default set (RFC 7644 section 3.4.2.5, 3.9): names are
                 *     case-insensitive, may carry the schema URN and may name one sub-attribute (`name.givenName`,
                 *     `emails.type`, `meta.location`). `id` and `schemas` are always returned, and `value` of each item of a
                 *     multi-valued attribute. Names that are not attributes of the resource select nothing; an empty value is the
                 *     same as none. With both parameters, `attributes` decides.
                 */
                attributes?: components["parameters"]["ScimAttributes"];
                /**
                 * @description Comma-separated attributes to leave out of the default set (RFC 7644 section 3.4.2.5, 3.9), named as for
                 *     `attributes`; `id` and `schemas` are never left out, nor `value` of the items of a multi-valued attribute.
                 *     Names that are not attributes of the resource exclude nothing; an empty value is the same as none.
                 */
                excludedAttributes?: components["parameters"]["ScimExcludedAttributes"];
            };
            header?: never;
            path: {
                /** @description The group's SCIM id; an id that is not one of this tenant's provisioned groups answers `404`. */
                scimGroupId: components["parameters"]["ScimGroupId"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "schemas": [
                 *         "urn:ietf:params:scim:api:messages:2.0:PatchOp"
                 *       ],
                 *       "Operations": [
                 *         {
                 *           "op": "replace",
                 *           "path": "displayName",
                 *           "value": "Teachers"
                 *         },
                 *         {
                 *           "op": "remove",
                 *           "path": "members[value eq \"42\"]"
                 *         }
                 *       ]
                 *     }
                 */
                "application/scim+json": components["schemas"]["ScimPatchRequest"];
                /**
                 * @example {
                 *       "schemas": [
                 *         "urn:ietf:params:scim:api:messages:2.0:PatchOp"
                 *       ],
                 *       "Operations": [
                 *         {
                 *           "op": "replace",
                 *           "path": "displayName",
                 *           "value": "Teachers"
                 *         },
                 *         {
                 *           "op": "remove",
                 *           "path": "members[value eq \"42\"]"
                 *         }
                 *       ]
                 *     }
                 */
                "application/json": components["schemas"]["ScimPatchRequest"];
            };
        };
        responses: {
            /** @description The group after the change. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/scim+json": components["schemas"]["ScimGroup"];
                };
            };
            400: components["responses"]["ScimError"];
            401: components["responses"]["ScimError"];
            404: components["responses"]["ScimError"];
            409: components["responses"]["ScimError"];
            default: components["responses"]["ScimError"];
        };
    };
    searchScimResources: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "schemas": [
                 *         "urn:ietf:params:scim:api:messages:2.0:SearchRequest"
                 *       ],
                 *       "filter": "displayName eq \"Crisis team\"",
                 *       "attributes": [
                 *         "displayName",
                 *         "meta.resourceType"
                 *       ],
                 *       "startIndex": 1,
                 *       "count": 10
                 *     }
                 */
                "application/scim+json": components["schemas"]["ScimSearchRequest"];
                /**
                 * @example {
                 *       "schemas": [
                 *         "urn:ietf:params:scim:api:messages:2.0:SearchRequest"
                 *       ],
                 *       "filter": "displayName eq \"Crisis team\"",
                 *       "attributes": [
                 *         "displayName",
                 *         "meta.resourceType"
                 *       ],
                 *       "startIndex": 1,
                 *       "count": 10
                 *     }
                 */
                "application/json": components["schemas"]["ScimSearchRequest"];
            };
        };
        responses: {
            /** @description A page of users and groups. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/scim+json": components["schemas"]["ScimResourceList"];
                };
            };
            400: components["responses"]["ScimError"];
            401: components["responses"]["ScimError"];
            default: components["responses"]["ScimError"];
        };
    };
    getSamlServiceProviderMetadata: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The service provider metadata (an `EntityDescriptor` XML document). */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/samlmetadata+xml": string;
                };
            };
            400: components["responses"]["BadRequest"];
            default: components["responses"]["Unexpected"];
        };
    };
    consumeSamlAssertion: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/x-www-form-urlencoded": components["schemas"]["SamlAcsForm"];
            };
        };
        responses: {
            /**
             * @description Redirect to the `RelayState` target.
             *
             *     On success the target gets the query parameters `sessionId` (the session that started the `saml` challenge)
             *     and `code` (a one-time code the client sends as the `saml` answer of `PATCH /sessions/{id}` to verify the
             *     factor), for example `https://login.example.com/login/sso?sessionId=0b6f2d4e-8a51-4c55-9a8e-3f3f6a0d2c11&code=9d1b2f1c5e7a4b3c8d6e`.
             *
             *     On failure the target gets `error` with one of: `saml_validation_failed` (the SAML response is not valid:
             *     signature, audience, conditions, `InResponseTo` or replay, or the asserted email is not at a domain
             *     registered to the organisation for SAML: an identity provider speaks for its own domains' addresses only),
             *     `user_not_found` (no user matches the asserted identity) or `unauthorized_organization` (the user does not belong to the organisation the sign-in was
             *     started for), for example `https://login.example.com/login/sso?error=user_not_found`.
             *     A form without `RelayState` (or with an empty one) redirects to the sign-in app's SSO page
             *     (`<sign-in app>/login/sso?error=saml_validation_failed`), as a browser cannot show a JSON answer.
             */
            302: {
                headers: {
                    /** @description The `RelayState` target with `sessionId` and `code`, or with `error`. */
                    Location: string;
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["BadRequest"];
            default: components["responses"]["Unexpected"];
        };
    };
}
