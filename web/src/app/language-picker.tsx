import { useTranslation } from 'react-i18next';
import { Icon } from '../components/icon';
import { LANGUAGES, toLanguageCode } from '../i18n/languages';

export function LanguagePicker() {
  const { t, i18n } = useTranslation();
  const current = toLanguageCode(i18n.resolvedLanguage ?? i18n.language);
  return (
    <div className="language-picker">
      <Icon name="globe" />
      <label className="visually-hidden" htmlFor="language-picker">
        {t('app.language')}
      </label>
      <select id="language-picker" value={current} onChange={(event) => void i18n.changeLanguage(event.target.value)}>
        {LANGUAGES.map((language) => (
          <option key={language.code} value={language.code} lang={language.code}>
            {language.name}
          </option>
        ))}
      </select>
    </div>
  );
}
