import { useFormik } from 'formik';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { asFailure } from '../../api/api-failure';
import { clientFor } from '../../api/client';
import { type PasswordLinkKind, savePassword } from '../../api/passwords';
import { useFormBehaviour } from '../../app/form-behaviour';
import { schemaErrors } from '../../app/schema-validation';
import { useFocusFirstError } from '../../app/use-focus-first-error';
import { useFormAlert } from '../../app/use-form-alert';
import { Alert } from '../../components/alert';
import { Button } from '../../components/button';
import { MessageText } from '../../components/message-text';
import { PasswordInput } from '../../components/password-input';
import type { RegionTarget } from '../../config/config';
import type { TranslationKey } from '../../i18n/keys';
import type { PasswordLink } from '../../password/password-link';
import { passwordFailureMessage } from '../../password/password-messages';
import { ruleMessageKeys, splitMessageKeys } from '../../password/password-policy';
import { newPasswordSchema } from './new-password-schema';

/** How a link ends: the password was saved, or the server says the link cannot be used. */
export type TokenOutcome = 'done' | 'invalid' | 'expired' | 'used';

interface NewPasswordFormProps {
  linkKind: PasswordLinkKind;
  link: PasswordLink;
  /** The region that knows the link's token. */
  target: RegionTarget;
  onOutcome: (outcome: TokenOutcome) => void;
}

const OUTCOME_OF_CODE: Partial<Record<string, TokenOutcome>> = {
  USER_PASSWORD_SET_TOKEN_INVALID: 'invalid',
  USER_PASSWORD_SET_TOKEN_EXPIRED: 'expired',
  USER_PASSWORD_ALREADY_SET: 'used',
};

const FIELD_IDS = { password: 'new-password', confirmation: 'confirm-password' } as const;
type Values = Record<keyof typeof FIELD_IDS, string>;

export function NewPasswordForm({ linkKind, link, target, onOutcome }: NewPasswordFormProps) {
  const { t } = useTranslation();
  const { alert, setAlert, waiting } = useFormAlert('new-password-submit');
  /** Broken password rules the server reported, shown on the password field until it changes. */
  const [serverRules, setServerRules] = useState<TranslationKey[]>([]);

  const form = useFormBehaviour(
    useFormik<Values>({
      initialValues: { password: '', confirmation: '' },
      validate: (values) => schemaErrors(newPasswordSchema, values),
      onSubmit: async ({ password }) => {
        setAlert(null);
        try {
          await savePassword(clientFor(target.baseUrl), linkKind, link.userId, link.token, password);
          onOutcome('done');
        } catch (error) {
          const failure = asFailure(error);
          const outcome = OUTCOME_OF_CODE[failure.code];
          const rules = failure.code === 'BAD_REQUEST' ? ruleMessageKeys(failure.issueRules) : [];
          if (outcome) onOutcome(outcome);
          else if (rules.length > 0) setServerRules(rules);
          else setAlert(passwordFailureMessage(failure));
        }
      },
    }),
  );

  const { values, submitCount, isSubmitting } = form;
  // What the server said about the password no longer holds once it changes; a wait still does.
  useEffect(() => {
    setServerRules([]);
    setAlert((shown) => (shown?.until === undefined ? null : shown));
  }, [values.password, setAlert]);

  /** Every message of a field, one per line (a password can break several rules at once). */
  const shown = (field: keyof Values): string | undefined => {
    const error = form.shownError(field);
    const keys = error ? splitMessageKeys(error) : field === 'password' ? serverRules : [];
    return keys.length > 0 ? keys.map((key) => t(key)).join('\n') : undefined;
  };
  const fieldsWithErrors = (Object.keys(FIELD_IDS) as (keyof Values)[])
    .filter((field) => shown(field))
    .map((field) => FIELD_IDS[field]);
  useFocusFirstError(submitCount, isSubmitting, fieldsWithErrors);

  return (
    <form
      className="stack"
      noValidate
      onSubmit={(event) => (waiting ? event.preventDefault() : void form.handleSubmit(event))}
      aria-labelledby="new-password-title"
    >
      <p>{t(linkKind === 'set' ? 'newPassword.descriptionSet' : 'newPassword.descriptionReset')}</p>
      {alert && (
        <Alert focus>
          <MessageText message={alert} />
        </Alert>
      )}
      <PasswordInput
        id={FIELD_IDS.password}
        name="password"
        autoComplete="new-password"
        label={t('newPassword.passwordLabel')}
        message={t('newPassword.passwordHint')}
        value={values.password}
        onChange={form.handleChange}
        onBlur={form.handleBlur}
        error={shown('password')}
      />
      <PasswordInput
        id={FIELD_IDS.confirmation}
        name="confirmation"
        autoComplete="new-password"
        label={t('newPassword.confirmLabel')}
        value={values.confirmation}
        onChange={form.handleChange}
        onBlur={form.handleBlur}
        error={shown('confirmation')}
      />
      <Button id="new-password-submit" type="submit" variant="primary" busy={isSubmitting} disabled={waiting}>
        {t(linkKind === 'set' ? 'newPassword.submitSet' : 'newPassword.submitReset')}
      </Button>
    </form>
  );
}
