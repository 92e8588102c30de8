import type { Catalog } from './en';

export const sv: Catalog = {
  email: {
    linkFallback: 'Om knappen inte fungerar, kopiera den här länken till din webbläsare:',
    automatic: 'Det här meddelandet skickades automatiskt. Svar läses inte.',
  },
  otp: {
    emailSubject: 'Din verifieringskod: {{code}}',
    emailCode: 'Din verifieringskod är {{code}}.',
    emailValidity:
      'Den gäller i {{minutes}} minuter. Om du inte försökte logga in kan du bortse från det här meddelandet.',
    sms: 'Din verifieringskod är {{code}}. Giltig i {{minutes}} minuter.',
  },
  passwordReset: {
    subject: 'Återställ ditt lösenord',
    intro:
      'Någon har bett om att få återställa lösenordet till ditt konto {{email}}. Öppna den här länken inom {{minutes}} minuter för att välja ett nytt lösenord:',
    action: 'Välj ett nytt lösenord',
    ignore: 'Om det inte var du kan du bortse från det här meddelandet. Ditt lösenord förblir detsamma.',
    passkeys:
      'När du väljer ett nytt lösenord tas också alla lösennycklar på kontot bort; du kan lägga till dem igen när du har loggat in.',
  },
  passwordChanged: {
    subject: 'Ditt lösenord har ändrats',
    changed:
      'Lösenordet för ditt konto {{email}} ändrades {{time}}, från nätverket {{network}}. Alla andra inloggningar på kontot har loggats ut.',
    notYou:
      'Om det inte var du: återställ ditt lösenord direkt med ”Glömt lösenordet” på inloggningssidan och kontakta din administratör.',
  },
  passkey: {
    addedSubject: 'En lösennyckel har lagts till på ditt konto',
    added: 'Lösennyckeln {{name}} har lagts till på ditt konto {{email}}. Nu kan du logga in med den utan lösenord.',
    removedSubject: 'En lösennyckel har tagits bort från ditt konto',
    removed:
      'Lösennyckeln {{name}} har tagits bort från ditt konto {{email}}. Den kan inte längre användas för att logga in.',
    notYou:
      'Om det inte var du: återställ ditt lösenord direkt (då tas även alla lösennycklar bort) och kontakta din administratör.',
    notYouAdded:
      'Om det inte var du: ta bort lösennyckeln med den här länken (giltig i {{days}} dagar), återställ sedan ditt lösenord – då tas även alla lösennycklar bort – och kontakta din administratör.',
    removeAction: 'Ta bort lösennyckeln',
  },
  invitation: {
    subject: 'Ditt konto hos {{organisation}}',
    intro:
      '{{organisation}} har skapat ett konto åt dig. Du loggar in med {{email}}. Öppna den här länken inom {{days}} dagar för att välja ditt lösenord:',
    action: 'Välj ditt lösenord',
    expired: 'Om länken har gått ut, be din administratör att skicka en ny inbjudan.',
  },
  personalAlarm: {
    subject: 'Personlarm: {{owner}}',
    text: 'Personlarm från {{owner}}: {{text}}',
    location: 'Senast kända position: {{coordinates}} {{mapUrl}}',
    ranOut: 'Timern gick ut {{time}}.',
    repeats: 'Upprepade larm sedan {{since}}: {{count}}. Det här meddelandet gäller dem alla; det senaste visas.',
    warningSubject: 'Ditt personlarm går snart',
    warning: 'Ditt personlarm går {{inTime}} om du inte stoppar eller förlänger det: {{text}}',
  },
  personalAlarmChanged: {
    subject: 'Ditt personlarm har ändrats av {{actor}}',
    intro: '{{actor}} har ändrat ditt personlarm "{{text}}".',
    stopped: 'Timern har stoppats: inget larm kommer att skickas.',
    started: 'Timern har startats: larmet går {{time}} om det inte stoppas.',
    moved: 'Larmet går nu {{time}} (tidigare {{previous}}).',
    newText: 'Texten är nu: {{text}}',
    warningOn: 'Varningen en minut innan är nu på.',
    warningOff: 'Varningen en minut innan är nu av.',
    location: 'Positionen har ändrats.',
    recipients: 'Vilka som får larmet har ändrats.',
    contact: 'Om du inte väntade dig det här, kontakta {{actor}} eller din administratör.',
    contactAdministrator: 'Om du inte väntade dig det här, kontakta din administratör.',
    someone: 'Någon',
  },
  externalMessage: {
    emailSubject: 'Meddelande från {{sender}}',
    confirmEmail: 'Bekräfta att du har läst det här meddelandet: {{url}}',
    confirmPrompt: 'Bekräfta att du har läst det här meddelandet.',
    confirmAction: 'Bekräfta',
    confirmSms: 'Bekräfta: {{url}}',
    voiceIntro: 'Meddelande från {{sender}}.',
  },
  confirmationPage: {
    invalidTitle: 'Ogiltig länk',
    invalidHeading: 'Den här länken är inte giltig',
    invalidText: 'Kontrollera att du öppnade hela länken i meddelandet.',
    notAllowedTitle: 'Inte tillåtet',
    messageFrom: 'Meddelande från {{sender}}:',
    confirmTitle: 'Bekräfta att du har läst meddelandet',
    confirmButton: 'Jag har läst meddelandet',
    doneTitle: 'Bekräftat',
    doneHeading: 'Tack',
    doneText: 'Du har bekräftat att du har läst det här meddelandet.',
  },
  unusualVolume: {
    subject: 'Ovanligt många utskick i {{organisation}}',
    alarms: '{{count}} personliga larm utlöstes under timmen från {{from}}; det vanliga är {{usual}} i timmen.',
    messages: '{{count}} externa meddelanden skickades under timmen från {{from}}; det vanliga är {{usual}} i timmen.',
    alarmsAdvice:
      'Alla larm går fortfarande ut (upprepningar till samma mottagare sammanfattas). Om detta inte är en verklig nödsituation, kontrollera vem som utlöste dem.',
    messagesAdvice:
      'Om detta inte är en verklig kris, kontrollera vem som skickade dem och om ett avsändarkonto missbrukas.',
  },
};
