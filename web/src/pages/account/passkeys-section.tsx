import { type FormEvent, useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { asFailure } from '../../api/api-failure';
import { deletePasskey, listPasskeys, renamePasskey } from '../../api/account';
import type { Passkey } from '../../api/passkeys';
import { useAnnounce } from '../../app/announcer';
import { Alert } from '../../components/alert';
import { Button } from '../../components/button';
import { MessageText } from '../../components/message-text';
import { TextInput } from '../../components/text-input';
import type { Message } from '../../i18n/failure-messages';
import { passkeyFailureMessage } from '../../i18n/passkey-messages';
import { ProofCancelled, useAccount } from './account-context';
import { accountFailureMessage } from './account-messages';
import { formatMoment } from './format';

type Editing = { kind: 'rename'; id: string; name: string; invalid: boolean } | { kind: 'remove'; id: string } | null;

/** Her passkeys in this region: add one on this device, rename one, remove one. */
export function PasskeysSection() {
  const { t, i18n } = useTranslation();
  const announce = useAnnounce();
  const { session, client, run, revision, changed } = useAccount();
  const [passkeys, setPasskeys] = useState<Passkey[] | null>(null);
  const [alert, setAlert] = useState<Message | null>(null);
  const [editing, setEditing] = useState<Editing>(null);
  const [busy, setBusy] = useState<string | null>(null);

  const load = useCallback(async () => {
    try {
      setPasskeys(await run((ref) => listPasskeys(client, ref)));
    } catch (error) {
      setAlert(accountFailureMessage(error));
    }
  }, [client, run]);
  useEffect(() => void load(), [load, revision]);

  /** Runs a change; a cancelled proof leaves everything as it was, without a word. */
  const change = async (id: string, action: () => Promise<void>, failure: (error: unknown) => Message | null) => {
    setAlert(null);
    setBusy(id);
    try {
      await action();
    } catch (error) {
      if (!(error instanceof ProofCancelled)) setAlert(failure(error));
    } finally {
      setBusy(null);
    }
  };

  const add = () =>
    change(
      'add',
      async () => {
        const { addPasskeyHere } = await import('./passkey-ceremonies');
        await run((ref) => addPasskeyHere(session, ref));
        announce(t('passkey.added'));
        changed();
      },
      (error) => passkeyFailureMessage(error, 'register'),
    );

  const rename = (event: FormEvent, passkey: Passkey) => {
    event.preventDefault();
    if (editing?.kind !== 'rename') return;
    const name = editing.name.trim();
    if (!name) return setEditing({ ...editing, invalid: true });
    void change(
      passkey.id,
      async () => {
        await run((ref) => renamePasskey(client, ref, passkey.id, name));
        setEditing(null);
        announce(t('account.passkeys.renamed', { name }));
        changed();
      },
      (error) => accountFailureMessage(asFailure(error)),
    );
  };

  const remove = (passkey: Passkey) =>
    change(
      passkey.id,
      async () => {
        await run((ref) => deletePasskey(client, ref, passkey.id));
        setEditing(null);
        announce(t('account.passkeys.removed', { name: passkey.name }));
        changed();
        document.getElementById('passkeys-title')?.focus();
      },
      (error) => accountFailureMessage(asFailure(error)),
    );

  return (
    <section className="account-section" aria-labelledby="passkeys-title">
      <h2 id="passkeys-title" className="section-title" tabIndex={-1}>
        {t('account.passkeys.title')}
      </h2>
      <p className="muted">{t('account.passkeys.description')}</p>
      {alert && (
        <Alert focus>
          <MessageText message={alert} />
        </Alert>
      )}
      {passkeys === null ? null : passkeys.length === 0 ? (
        <p>{t('account.passkeys.none')}</p>
      ) : (
        <ul className="account-list">
          {passkeys.map((passkey) => (
            <li key={passkey.id} className="account-item">
              <h3 className="account-item__title">{passkey.name}</h3>
              <p className="muted">
                {[
                  passkey.authenticator,
                  t('account.passkeys.created', { when: formatMoment(passkey.createdAt, i18n.language) }),
                  passkey.lastUsedAt
                    ? t('account.passkeys.lastUsed', { when: formatMoment(passkey.lastUsedAt, i18n.language) })
                    : t('account.passkeys.neverUsed'),
                ]
                  .filter(Boolean)
                  .join(' · ')}
              </p>
              {passkey.suspicious && <p className="account-item__warning">{t('account.passkeys.suspicious')}</p>}
              {editing?.kind === 'rename' && editing.id === passkey.id ? (
                <form className="stack" noValidate onSubmit={(event) => rename(event, passkey)}>
                  <TextInput
                    id={`passkey-name-${passkey.id}`}
                    label={t('account.passkeys.nameLabel')}
                    value={editing.name}
                    maxLength={64}
                    autoFocus
                    onChange={(event) => setEditing({ ...editing, name: event.target.value, invalid: false })}
                    error={editing.invalid ? t('account.passkeys.nameRequired') : undefined}
                  />
                  <div className="account-actions">
                    <Button type="submit" variant="primary" busy={busy === passkey.id}>
                      {t('account.passkeys.save')}
                    </Button>
                    <Button variant="tertiary" disabled={busy === passkey.id} onClick={() => setEditing(null)}>
                      {t('account.cancel')}
                    </Button>
                  </div>
                </form>
              ) : editing?.kind === 'remove' && editing.id === passkey.id ? (
                <div className="stack" role="group" aria-labelledby={`remove-${passkey.id}`}>
                  <p id={`remove-${passkey.id}`}>{t('account.passkeys.removeQuestion', { name: passkey.name })}</p>
                  <div className="account-actions">
                    <Button variant="primary" autoFocus busy={busy === passkey.id} onClick={() => void remove(passkey)}>
                      {t('account.passkeys.removeConfirm')}
                    </Button>
                    <Button variant="tertiary" disabled={busy === passkey.id} onClick={() => setEditing(null)}>
                      {t('account.cancel')}
                    </Button>
                  </div>
                </div>
              ) : (
                <div className="account-actions">
                  <Button
                    variant="secondary"
                    disabled={busy !== null}
                    aria-label={t('account.passkeys.renameLabel', { name: passkey.name })}
                    onClick={() => setEditing({ kind: 'rename', id: passkey.id, name: passkey.name, invalid: false })}
                  >
                    {t('account.passkeys.rename')}
                  </Button>
                  <Button
                    variant="secondary"
                    disabled={busy !== null}
                    aria-label={t('account.passkeys.removeLabel', { name: passkey.name })}
                    onClick={() => setEditing({ kind: 'remove', id: passkey.id })}
                  >
                    {t('account.passkeys.remove')}
                  </Button>
                </div>
              )}
            </li>
          ))}
        </ul>
      )}
      <Button
        id="passkey-add"
        variant="primary"
        icon="key"
        busy={busy === 'add'}
        disabled={busy !== null && busy !== 'add'}
        onClick={() => void add()}
      >
        {t('passkey.add')}
      </Button>
    </section>
  );
}
