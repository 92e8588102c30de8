// English, the fallback: every other language has exactly these keys and {{placeholders}} (catalog.test.ts).
// Fixed lifetimes are written with their numbers as placeholders ({{minutes}}, {{days}}); they are always plural.
export const en = {
  email: {
    linkFallback: 'If the button does not work, copy this link into your browser:',
    automatic: 'This message was sent automatically. Replies are not read.',
  },
  otp: {
    emailSubject: 'Your verification code: {{code}}',
    emailCode: 'Your verification code is {{code}}.',
    emailValidity: 'It is valid for {{minutes}} minutes. If you did not try to log in, you can ignore this message.',
    sms: 'Your verification code is {{code}}. Valid for {{minutes}} minutes.',
  },
  passwordReset: {
    subject: 'Reset your password',
    intro:
      'Someone asked to reset the password of your account {{email}}. To choose a new password, open this link within {{minutes}} minutes:',
    action: 'Choose a new password',
    ignore: 'If it was not you, ignore this message; your password stays the same.',
    passkeys:
      'Choosing a new password also removes every passkey of the account; you can add them again once you have signed in.',
  },
  passwordChanged: {
    subject: 'Your password was changed',
    changed:
      'The password of your account {{email}} was changed at {{time}}, from the network {{network}}. Every other session of the account has been signed out.',
    notYou:
      'If this was not you, reset your password at once with “Forgot your password?” on the login page and tell your administrator.',
  },
  passkey: {
    addedSubject: 'A passkey was added to your account',
    added: 'The passkey {{name}} was added to your account {{email}}. It can now sign you in without a password.',
    removedSubject: 'A passkey was removed from your account',
    removed: 'The passkey {{name}} was removed from your account {{email}}. It can no longer sign you in.',
    notYou:
      'If this was not you, reset your password at once (that also removes every passkey) and tell your administrator.',
    notYouAdded:
      'If this was not you, remove the passkey with this link (valid for {{days}} days), then reset your password, which also removes every passkey, and tell your administrator.',
    removeAction: 'Remove this passkey',
  },
  invitation: {
    subject: 'Your account at {{organisation}}',
    intro:
      '{{organisation}} has created an account for you. You log in with {{email}}. Open this link within {{days}} days to choose your password:',
    action: 'Choose your password',
    expired: 'If the link has expired, ask your administrator to send a new invitation.',
  },
  personalAlarm: {
    subject: 'Personal alarm: {{owner}}',
    text: 'Personal alarm from {{owner}}: {{text}}',
    location: 'Last known location: {{coordinates}} {{mapUrl}}',
    ranOut: 'The timer ran out at {{time}}.',
    repeats: 'Alarms repeated since {{since}}: {{count}}. This message stands for all of them; the latest is shown.',
    warningSubject: 'Your personal alarm goes off soon',
    warning: 'Your personal alarm goes off {{inTime}} unless you stop or extend it: {{text}}',
  },
  personalAlarmChanged: {
    subject: 'Your personal alarm was changed by {{actor}}',
    intro: '{{actor}} changed your personal alarm "{{text}}".',
    stopped: 'The timer was stopped: no alarm will be sent.',
    started: 'The timer was started: the alarm goes off at {{time}} unless it is stopped.',
    moved: 'The alarm now goes off at {{time}} (it was {{previous}}).',
    newText: 'The text is now: {{text}}',
    warningOn: 'The one-minute warning is now on.',
    warningOff: 'The one-minute warning is now off.',
    location: 'The location was changed.',
    recipients: 'The people who get the alarm were changed.',
    contact: 'If you did not expect this, contact {{actor}} or your administrator.',
    contactAdministrator: 'If you did not expect this, contact your administrator.',
    someone: 'Someone',
  },
  externalMessage: {
    emailSubject: 'Message from {{sender}}',
    confirmEmail: 'Please confirm that you have read this message: {{url}}',
    confirmPrompt: 'Please confirm that you have read this message.',
    confirmAction: 'Confirm',
    confirmSms: 'Confirm: {{url}}',
    voiceIntro: 'Message from {{sender}}.',
  },
  confirmationPage: {
    invalidTitle: 'Link not valid',
    invalidHeading: 'This link is not valid',
    invalidText: 'Check that you opened the whole link from the message.',
    notAllowedTitle: 'Not allowed',
    messageFrom: 'Message from {{sender}}:',
    confirmTitle: 'Confirm that you have read the message',
    confirmButton: 'I have read this message',
    doneTitle: 'Confirmed',
    doneHeading: 'Thank you',
    doneText: 'You confirmed that you have read this message.',
  },
  unusualVolume: {
    subject: 'Unusual volume in {{organisation}}',
    alarms: '{{count}} personal alarms were raised in the hour from {{from}}; the usual is {{usual}} an hour.',
    messages: '{{count}} external messages were sent in the hour from {{from}}; the usual is {{usual}} an hour.',
    alarmsAdvice:
      'Every alarm still goes out (repeats to the same recipients are summarised). If this is not a real emergency, check who raised them.',
    messagesAdvice: 'If this is not a real crisis, check who sent them and whether a sender account is misused.',
  },
};

/** The shape every language fills in: the same groups and keys as English. */
export type Catalog = { [G in keyof typeof en]: { [K in keyof (typeof en)[G]]: string } };
