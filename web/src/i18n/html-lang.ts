import type { i18n } from 'i18next';

/** Keeps <html lang> on the language being shown (screen readers pick their voice from it). */
export function followHtmlLang(instance: i18n): void {
  if (instance.language) document.documentElement.lang = instance.language;
  instance.on('languageChanged', (language) => {
    document.documentElement.lang = language;
  });
}
