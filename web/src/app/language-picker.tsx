import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Icon } from '../components/icon';
import { LANGUAGES, toLanguageCode } from '../i18n/languages';

/** Keys with which a closed list moves from option to option, each move a change of the select. */
const BROWSING_KEYS = new Set(['ArrowUp', 'ArrowDown', 'ArrowLeft', 'ArrowRight', 'Home', 'End', 'PageUp', 'PageDown']);

/**
 * The page's language. A choice made with the pointer (or in the opened list) switches at once; moving through the
 * languages with the arrow keys only shows them, and Enter (or leaving the list) switches to the one shown, so the
 * page is not translated again, and read out again, at every key on the way (the ARIA select pattern).
 */
export function LanguagePicker() {
  const { t, i18n } = useTranslation();
  const current = toLanguageCode(i18n.resolvedLanguage ?? i18n.language);
  const [shown, setShown] = useState<string | null>(null);
  const [browsing, setBrowsing] = useState(false);
  const choose = (language: string | null) => {
    setShown(null);
    setBrowsing(false);
    if (language && language !== current) void i18n.changeLanguage(language);
  };
  return (
    <div className="language-picker">
      <Icon name="globe" />
      <label className="visually-hidden" htmlFor="language-picker">
        {t('app.language')}
      </label>
      <select
        id="language-picker"
        value={shown ?? current}
        onKeyDown={(event) => {
          if (BROWSING_KEYS.has(event.key) || (event.key.length === 1 && event.key !== ' ')) setBrowsing(true);
          else if (event.key === 'Enter') choose(shown);
        }}
        onChange={(event) => (browsing ? setShown(event.target.value) : choose(event.target.value))}
        onBlur={() => choose(shown)}
      >
        {LANGUAGES.map((language) => (
          <option key={language.code} value={language.code} lang={language.code}>
            {language.name}
          </option>
        ))}
      </select>
    </div>
  );
}
