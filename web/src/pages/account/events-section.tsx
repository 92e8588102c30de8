import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { type SecurityEvent, listOwnSecurityEvents } from '../../api/account';
import { Alert } from '../../components/alert';
import { MessageText } from '../../components/message-text';
import type { Message } from '../../i18n/failure-messages';
import { useAccount } from './account-context';
import { accountFailureMessage } from './account-messages';
import { eventInWords } from './event-words';

/** The last 20 events of her own account, in plain words, newest first. */
export function EventsSection() {
  const { t, i18n } = useTranslation();
  const { client, run, revision } = useAccount();
  const [events, setEvents] = useState<SecurityEvent[] | null>(null);
  const [alert, setAlert] = useState<Message | null>(null);

  useEffect(() => {
    let current = true;
    run((ref) => listOwnSecurityEvents(client, ref)).then(
      (loaded) => current && setEvents(loaded),
      (error: unknown) => current && setAlert(accountFailureMessage(error)),
    );
    return () => {
      current = false;
    };
  }, [client, run, revision]);

  return (
    <section className="account-section" aria-labelledby="events-title">
      <h2 id="events-title" className="section-title">
        {t('account.events.title')}
      </h2>
      <p className="muted">{t('account.events.description')}</p>
      {alert && (
        <Alert>
          <MessageText message={alert} />
        </Alert>
      )}
      {events &&
        (events.length === 0 ? (
          <p>{t('account.events.none')}</p>
        ) : (
          <ul className="account-events">
            {events.map((event) => (
              <li key={event.id} className={event.outcome === 'succeeded' ? undefined : 'account-events__problem'}>
                {eventInWords(event, t, i18n.language)}
              </li>
            ))}
          </ul>
        ))}
    </section>
  );
}
