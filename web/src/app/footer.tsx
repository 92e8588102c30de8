import { useTranslation } from 'react-i18next';
import { FOOTER_LINKS } from '../config/platforms';
import { toLanguageCode } from '../i18n/languages';

export function Footer() {
  const { t, i18n } = useTranslation();
  const links = FOOTER_LINKS[toLanguageCode(i18n.resolvedLanguage ?? i18n.language)];
  return (
    <footer className="layout__footer">
      <nav aria-label={t('app.support')}>
        <a href={links.support} target="_blank" rel="noopener noreferrer">
          {t('app.support')}
          <span className="visually-hidden"> {t('app.opensInNewTab')}</span>
        </a>
        <a href={links.privacyPolicy} target="_blank" rel="noopener noreferrer">
          {t('app.privacyPolicy')}
          <span className="visually-hidden"> {t('app.opensInNewTab')}</span>
        </a>
      </nav>
    </footer>
  );
}
