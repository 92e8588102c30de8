import { useFormik } from 'formik';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { asFailure } from '../../api/api-failure';
import { changePassword } from '../../api/account';
import { useAnnounce } from '../../app/announcer';
import { useFormBehaviour } from '../../app/form-behaviour';
import { schemaErrors } from '../../app/schema-validation';
import { useFocusFirstError } from '../../app/use-focus-first-error';
import { useFormAlert } from '../../app/use-form-alert';
import { Alert } from '../../components/alert';
import { Button } from '../../components/button';
import { MessageText } from '../../components/message-text';
import { PasswordInput } from '../../components/password-input';
import type { TranslationKey } from '../../i18n/keys';
import { passwordFailureMessage } from '../../password/password-messages';
import { ruleMessageKeys, splitMessageKeys } from '../../password/password-policy';
import { useAccount } from './account-context';
import { changePasswordSchema } from './password-schema';

const FIELD_IDS = {
  currentPassword: 'current-password',
  password: 'changed-password',
  confirmation: 'changed-confirm',
} as const;
type Values = Record<keyof typeof FIELD_IDS, string>;
const EMPTY: Values = { currentPassword: '', password: '', confirmation: '' };

/** The server's answers about the fields: the current password is wrong, or the new one breaks a rule it knows. */
type ServerErrors = Partial<Record<keyof Values, TranslationKey[]>>;

/** Change password: the current one, then the new one twice. Her other sessions end; the server emails her. */
export function PasswordSection() {
  const { t } = useTranslation();
  const announce = useAnnounce();
  const { client, run, changed } = useAccount();
  const { alert, setAlert, waiting } = useFormAlert('password-change-submit');
  const [serverErrors, setServerErrors] = useState<ServerErrors>({});
  const [done, setDone] = useState(false);

  const form = useFormBehaviour(
    useFormik<Values>({
      initialValues: EMPTY,
      validate: (values) => schemaErrors(changePasswordSchema, values),
      onSubmit: async ({ currentPassword, password }, helpers) => {
        setAlert(null);
        setDone(false);
        try {
          await run((ref) => changePassword(client, ref, currentPassword, password));
          helpers.resetForm({ values: EMPTY });
          setDone(true);
          announce(t('account.password.changed'));
          changed();
        } catch (error) {
          const failure = asFailure(error);
          if (failure.code === 'INVALID_CREDENTIALS')
            return setServerErrors({ currentPassword: ['account.password.wrongCurrent'] });
          const rules: TranslationKey[] = failure.code === 'BAD_REQUEST' ? ruleMessageKeys(failure.issueRules) : [];
          if (failure.issueRules.includes('PASSWORD_UNCHANGED')) rules.push('account.password.unchanged');
          if (rules.length > 0) setServerErrors({ password: rules });
          else setAlert(passwordFailureMessage(failure));
        }
      },
    }),
  );

  const { values, submitCount, isSubmitting } = form;
  // What the server said about a field no longer holds once it changes.
  useEffect(
    () => setServerErrors((shown) => (shown.currentPassword ? { password: shown.password } : shown)),
    [values.currentPassword],
  );
  useEffect(
    () => setServerErrors((shown) => (shown.password ? { currentPassword: shown.currentPassword } : shown)),
    [values.password],
  );

  const shown = (field: keyof Values): string | undefined => {
    const error = form.shownError(field);
    const keys = error ? splitMessageKeys(error) : (serverErrors[field] ?? []);
    return keys.length > 0 ? keys.map((key) => t(key)).join('\n') : undefined;
  };
  const fieldsWithErrors = (Object.keys(FIELD_IDS) as (keyof Values)[])
    .filter((field) => shown(field))
    .map((field) => FIELD_IDS[field]);
  useFocusFirstError(submitCount, isSubmitting, fieldsWithErrors);
  // A wrong current password comes back after the submit: the focus goes to it too.
  useEffect(() => {
    if (serverErrors.currentPassword) document.getElementById(FIELD_IDS.currentPassword)?.focus();
    else if (serverErrors.password) document.getElementById(FIELD_IDS.password)?.focus();
  }, [serverErrors]);

  return (
    <section className="account-section" aria-labelledby="password-title">
      <h2 id="password-title" className="section-title">
        {t('account.password.title')}
      </h2>
      <form
        className="stack"
        noValidate
        aria-labelledby="password-title"
        onSubmit={(event) => (waiting ? event.preventDefault() : void form.handleSubmit(event))}
      >
        <p className="muted">{t('account.password.description')}</p>
        {alert && (
          <Alert focus>
            <MessageText message={alert} />
          </Alert>
        )}
        {done && (
          <p role="status" className="account-done">
            {t('account.password.changed')}
          </p>
        )}
        <PasswordInput
          id={FIELD_IDS.currentPassword}
          name="currentPassword"
          autoComplete="current-password"
          label={t('account.password.currentLabel')}
          value={values.currentPassword}
          onChange={form.handleChange}
          onBlur={form.handleBlur}
          error={shown('currentPassword')}
        />
        <PasswordInput
          id={FIELD_IDS.password}
          name="password"
          autoComplete="new-password"
          label={t('account.password.newLabel')}
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
          label={t('account.password.confirmLabel')}
          value={values.confirmation}
          onChange={form.handleChange}
          onBlur={form.handleBlur}
          error={shown('confirmation')}
        />
        <Button id="password-change-submit" type="submit" variant="primary" busy={isSubmitting} disabled={waiting}>
          {t('account.password.submit')}
        </Button>
      </form>
    </section>
  );
}
