import type { Catalog } from './en';

export const nl: Catalog = {
  email: {
    linkFallback: 'Werkt de knop niet? Kopieer dan deze link naar je browser:',
    automatic: 'Dit bericht is automatisch verstuurd. Antwoorden worden niet gelezen.',
  },
  otp: {
    emailSubject: 'Je verificatiecode: {{code}}',
    emailCode: 'Je verificatiecode is {{code}}.',
    emailValidity:
      'De code is {{minutes}} minuten geldig. Heb je niet geprobeerd in te loggen? Dan kun je dit bericht negeren.',
    sms: 'Je verificatiecode is {{code}}. {{minutes}} minuten geldig.',
  },
  passwordReset: {
    subject: 'Je wachtwoord resetten',
    intro:
      'Iemand heeft gevraagd om het wachtwoord van je account {{email}} te resetten. Open deze link binnen {{minutes}} minuten om een nieuw wachtwoord te kiezen:',
    action: 'Nieuw wachtwoord kiezen',
    ignore: 'Was jij dit niet? Negeer dan dit bericht; je wachtwoord blijft hetzelfde.',
    passkeys:
      'Als je een nieuw wachtwoord kiest, worden ook alle toegangssleutels van het account verwijderd; je kunt ze opnieuw toevoegen zodra je bent ingelogd.',
  },
  passwordChanged: {
    subject: 'Je wachtwoord is gewijzigd',
    changed:
      'Het wachtwoord van je account {{email}} is gewijzigd op {{time}}, vanaf het netwerk {{network}}. Alle andere sessies van het account zijn afgemeld.',
    notYou:
      'Was jij dit niet? Herstel je wachtwoord dan meteen met „Wachtwoord vergeten?” op de inlogpagina en laat het je beheerder weten.',
  },
  passkey: {
    addedSubject: 'Er is een toegangssleutel aan je account toegevoegd',
    added:
      'De toegangssleutel {{name}} is aan je account {{email}} toegevoegd. Je kunt er nu zonder wachtwoord mee inloggen.',
    removedSubject: 'Er is een toegangssleutel van je account verwijderd',
    removed: 'De toegangssleutel {{name}} is van je account {{email}} verwijderd. Je kunt er niet meer mee inloggen.',
    notYou:
      'Was jij dit niet? Reset dan meteen je wachtwoord (daarmee worden ook alle toegangssleutels verwijderd) en laat het je beheerder weten.',
    notYouAdded:
      'Was jij dit niet? Verwijder de toegangssleutel dan met deze link ({{days}} dagen geldig), reset daarna je wachtwoord – daarmee worden ook alle toegangssleutels verwijderd – en laat het je beheerder weten.',
    removeAction: 'Deze toegangssleutel verwijderen',
  },
  invitation: {
    subject: 'Je account bij {{organisation}}',
    intro:
      '{{organisation}} heeft een account voor je aangemaakt. Je logt in met {{email}}. Open deze link binnen {{days}} dagen om je wachtwoord te kiezen:',
    action: 'Wachtwoord kiezen',
    expired: 'Is de link verlopen? Vraag je beheerder dan om een nieuwe uitnodiging.',
  },
  personalAlarm: {
    subject: 'Persoonlijk alarm: {{owner}}',
    text: 'Persoonlijk alarm van {{owner}}: {{text}}',
    location: 'Laatst bekende locatie: {{coordinates}} {{mapUrl}}',
    ranOut: 'De timer is afgelopen op {{time}}.',
    repeats:
      'Herhaalde alarmen sinds {{since}}: {{count}}. Dit bericht geldt voor allemaal; het laatste wordt getoond.',
    warningSubject: 'Je persoonlijke alarm gaat zo af',
    warning: 'Je persoonlijke alarm gaat {{inTime}} af, tenzij je het stopt of verlengt: {{text}}',
  },
  personalAlarmChanged: {
    subject: 'Je persoonlijke alarm is gewijzigd door {{actor}}',
    intro: '{{actor}} heeft je persoonlijke alarm "{{text}}" gewijzigd.',
    stopped: 'De timer is gestopt: er wordt geen alarm verstuurd.',
    started: 'De timer is gestart: het alarm gaat af op {{time}}, tenzij het wordt gestopt.',
    moved: 'Het alarm gaat nu af op {{time}} (dat was {{previous}}).',
    newText: 'De tekst is nu: {{text}}',
    warningOn: 'De waarschuwing een minuut vooraf staat nu aan.',
    warningOff: 'De waarschuwing een minuut vooraf staat nu uit.',
    location: 'De locatie is gewijzigd.',
    recipients: 'De mensen die het alarm krijgen, zijn gewijzigd.',
    contact: 'Had je dit niet verwacht? Neem dan contact op met {{actor}} of je beheerder.',
    contactAdministrator: 'Had je dit niet verwacht? Neem dan contact op met je beheerder.',
    someone: 'Iemand',
  },
  externalMessage: {
    emailSubject: 'Bericht van {{sender}}',
    confirmEmail: 'Bevestig dat je dit bericht hebt gelezen: {{url}}',
    confirmPrompt: 'Bevestig dat je dit bericht hebt gelezen.',
    confirmAction: 'Bevestigen',
    confirmSms: 'Bevestig: {{url}}',
    voiceIntro: 'Bericht van {{sender}}.',
  },
  confirmationPage: {
    invalidTitle: 'Ongeldige link',
    invalidHeading: 'Deze link is niet geldig',
    invalidText: 'Controleer of je de volledige link uit het bericht hebt geopend.',
    notAllowedTitle: 'Niet toegestaan',
    messageFrom: 'Bericht van {{sender}}:',
    confirmTitle: 'Bevestig dat je het bericht hebt gelezen',
    confirmButton: 'Ik heb dit bericht gelezen',
    doneTitle: 'Bevestigd',
    doneHeading: 'Bedankt',
    doneText: 'Je hebt bevestigd dat je dit bericht hebt gelezen.',
  },
  unusualVolume: {
    subject: 'Ongewoon veel berichten bij {{organisation}}',
    alarms: 'Er zijn {{count}} persoonlijke alarmen gegeven in het uur vanaf {{from}}; gewoonlijk {{usual}} per uur.',
    messages: 'Er zijn {{count}} externe berichten verstuurd in het uur vanaf {{from}}; gewoonlijk {{usual}} per uur.',
    alarmsAdvice:
      'Elk alarm gaat nog steeds uit (herhalingen naar dezelfde ontvangers worden samengevat). Als dit geen echte noodsituatie is, controleer wie ze gaf.',
    messagesAdvice:
      'Als dit geen echte crisis is, controleer wie ze verstuurde en of een afzenderaccount wordt misbruikt.',
  },
};
