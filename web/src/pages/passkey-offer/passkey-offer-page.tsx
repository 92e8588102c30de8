import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate } from 'react-router';
import { byId, useAnnounce, useMovedHere, useStepEntry } from '../../app/announcer';
import { useDocumentTitle } from '../../app/use-document-title';
import { useFormAlert } from '../../app/use-form-alert';
import { Alert } from '../../components/alert';
import { Button } from '../../components/button';
import { MessageText } from '../../components/message-text';
import { config } from '../../config/config';
import { passkeyFailureMessage } from '../../i18n/passkey-messages';
import { browserLocation } from '../../login/browser-location';
import { declineOfferOnThisDevice } from '../../login/passkey-device';
import { type PendingOffer, forgetPendingOffer, readPendingOffer } from '../../login/passkey-offer';

/**
 * /login/passkey: the sign-in is complete; before the calling platform, "Log in faster next time with a passkey"
 * (add / not now / don't ask again on this device). Whatever the answer, the browser then goes to the platform.
 */
export function PasskeyOfferPage() {
  const [offer] = useState(() => readPendingOffer(config.redirectAllowList, config.regions));
  if (!offer) return <Navigate to="/login" replace />;
  return <PasskeyOffer offer={offer} />;
}

function PasskeyOffer({ offer }: { offer: PendingOffer }) {
  const { t } = useTranslation();
  const announce = useAnnounce();
  const { alert, setAlert, waiting } = useFormAlert('passkey-add');
  const [adding, setAdding] = useState(false);
  const [leaving, setLeaving] = useState(false);
  useDocumentTitle(t('passkey.offerTitle'));
  useStepEntry(t('passkey.offerTitle'), byId('passkey-offer-title'), useMovedHere());

  const leave = () => {
    setLeaving(true);
    forgetPendingOffer();
    browserLocation.replace(offer.url);
  };

  const add = async () => {
    setAlert(null);
    setAdding(true);
    try {
      const { addPasskey } = await import('../../login/passkey-flow');
      await addPasskey(offer);
      announce(t('passkey.added'));
      leave();
    } catch (error) {
      setAlert(passkeyFailureMessage(error, 'register'));
    } finally {
      setAdding(false);
    }
  };

  const busy = adding || leaving;
  return (
    <section className="card">
      <div className="stack">
        <h1 id="passkey-offer-title" className="page-title" tabIndex={-1}>
          {t('passkey.offerTitle')}
        </h1>
        <p>{t('passkey.offerDescription')}</p>
        {alert && (
          <Alert focus>
            <MessageText message={alert} />
          </Alert>
        )}
        <Button id="passkey-add" variant="primary" icon="key" busy={busy} disabled={waiting} onClick={() => void add()}>
          {t('passkey.add')}
        </Button>
        <Button variant="secondary" disabled={busy} onClick={leave}>
          {t('passkey.notNow')}
        </Button>
        <Button
          variant="tertiary"
          disabled={busy}
          onClick={() => {
            declineOfferOnThisDevice();
            leave();
          }}
        >
          {t('passkey.dontAskAgain')}
        </Button>
      </div>
    </section>
  );
}
