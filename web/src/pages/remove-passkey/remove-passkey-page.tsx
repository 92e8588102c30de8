import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { asFailure } from '../../api/api-failure';
import { callWithoutBody } from '../../api/call';
import { VERSION_HEADER, clientFor } from '../../api/client';
import { useAnnounce } from '../../app/announcer';
import { useDocumentTitle } from '../../app/use-document-title';
import { useFormAlert } from '../../app/use-form-alert';
import { Alert } from '../../components/alert';
import { Button } from '../../components/button';
import { Icon } from '../../components/icon';
import { MessageText } from '../../components/message-text';
import { type RegionTarget, config } from '../../config/config';
import { BUSY, type Message, rateLimitedMessage } from '../../i18n/failure-messages';
import type { TranslationKey } from '../../i18n/keys';

/** The contract's removal token: 43 characters of the URL-safe base64 alphabet (32 random bytes). */
const TOKEN = /^[A-Za-z0-9_-]{43}$/;

type View = 'ask' | 'done' | 'gone' | 'invalid';

const TITLES: Record<View, TranslationKey> = {
  ask: 'removePasskey.title',
  done: 'removePasskey.doneTitle',
  gone: 'removePasskey.goneTitle',
  invalid: 'removePasskey.invalidTitle',
};

interface RemovalLink {
  token: string;
  target: RegionTarget;
}

/**
 * The link's token and the region that issued it, the only one the token is sent to; null when either is missing
 * or malformed, or the region is not one this app serves.
 */
function readLink(search: URLSearchParams): RemovalLink | null {
  const token = search.get('token') ?? '';
  const target = config.regions.find((candidate) => candidate.region === search.get('region'));
  return TOKEN.test(token) && target ? { token, target } : null;
}

/** The region forgets the passkey the link was emailed for (204); the token travels in the body only. */
async function removePasskey({ token, target }: RemovalLink, language: string): Promise<void> {
  await callWithoutBody(() =>
    clientFor(target.baseUrl).POST('/passkeys/removal', {
      params: { header: { ...VERSION_HEADER, 'Accept-Language': language } },
      body: { token },
    }),
  );
}

/**
 * /remove-passkey, opened from the email that tells a user a passkey was added to her account. Nothing happens
 * on opening it (mail scanners open links): the passkey is removed only when she presses the button.
 */
export function RemovePasskeyPage() {
  const { t, i18n } = useTranslation();
  const announce = useAnnounce();
  const [searchParams] = useSearchParams();
  const [link] = useState(() => readLink(searchParams));
  const [view, setView] = useState<View>(link ? 'ask' : 'invalid');
  const [busy, setBusy] = useState(false);
  const { alert, setAlert, waiting } = useFormAlert('remove-passkey-submit');
  const title = t(TITLES[view]);
  useDocumentTitle(title);

  const remove = async () => {
    if (!link || busy || waiting) return;
    setBusy(true);
    setAlert(null);
    try {
      await removePasskey(link, i18n.language);
      setView('done');
    } catch (error) {
      const failure = asFailure(error);
      if (failure.code === 'NOT_FOUND') setView('gone');
      else if (failure.code === 'BAD_REQUEST') setView('invalid');
      else setAlert(removalFailureMessage(failure));
    } finally {
      setBusy(false);
    }
  };

  // When the view changes, the heading takes the focus and the new title is announced.
  const heading = useRef<HTMLHeadingElement>(null);
  const first = useRef(true);
  const titleNow = useRef(title);
  titleNow.current = title;
  useEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    heading.current?.focus();
    announce(titleNow.current);
  }, [view, announce]);

  return (
    <section
      className={view === 'gone' || view === 'invalid' ? 'card card--warning' : 'card'}
      aria-labelledby="remove-passkey-title"
    >
      {view !== 'ask' && (
        <Icon
          name={view === 'done' ? 'shield' : 'alert-triangle'}
          size={40}
          className={view === 'done' ? 'icon card__icon card__icon--success' : 'icon card__icon'}
        />
      )}
      <h1 id="remove-passkey-title" ref={heading} tabIndex={-1} className="page-title">
        {title}
      </h1>
      {view === 'ask' && (
        <div className="stack">
          <p>{t('removePasskey.description')}</p>
          {alert && (
            <Alert focus>
              <MessageText message={alert} />
            </Alert>
          )}
          <Button
            id="remove-passkey-submit"
            variant="primary"
            busy={busy}
            disabled={waiting}
            onClick={() => void remove()}
          >
            {t('removePasskey.submit')}
          </Button>
        </div>
      )}
      {view === 'done' && (
        <>
          <p>{t('removePasskey.done')}</p>
          <Link className="text-link" to="/forgot-password">
            {t('removePasskey.resetPassword')}
          </Link>
        </>
      )}
      {view === 'gone' && <p>{t('removePasskey.gone')}</p>}
      {view === 'invalid' && <p>{t('removePasskey.invalid')}</p>}
    </section>
  );
}

/** A failed removal the user can try again: a busy region, the wait of a rate limit, or no connection. */
function removalFailureMessage(failure: ReturnType<typeof asFailure>): Message {
  if (failure.shed) return BUSY;
  if (failure.code === 'TOO_MANY_REQUESTS') return rateLimitedMessage(failure);
  if (failure.code === 'NETWORK_ERROR') return { key: 'removePasskey.network' };
  return { key: 'errors.generic' };
}
