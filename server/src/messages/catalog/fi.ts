import type { Catalog } from './en';

export const fi: Catalog = {
  email: {
    linkFallback: 'Jos painike ei toimi, kopioi tämä linkki selaimeesi:',
    automatic: 'Tämä viesti lähetettiin automaattisesti. Vastauksia ei lueta.',
  },
  otp: {
    emailSubject: 'Vahvistuskoodisi: {{code}}',
    emailCode: 'Vahvistuskoodisi on {{code}}.',
    emailValidity:
      'Se on voimassa {{minutes}} minuuttia. Jos et yrittänyt kirjautua, voit jättää tämän viestin huomiotta.',
    sms: 'Vahvistuskoodisi on {{code}}. Voimassa {{minutes}} minuuttia.',
  },
  passwordReset: {
    subject: 'Palauta salasanasi',
    intro:
      'Joku pyysi tilisi {{email}} salasanan palauttamista. Avaa tämä linkki {{minutes}} minuutin kuluessa ja valitse uusi salasana:',
    action: 'Valitse uusi salasana',
    ignore: 'Jos pyyntö ei ollut sinun, jätä tämä viesti huomiotta. Salasanasi pysyy ennallaan.',
    passkeys:
      'Uuden salasanan valitseminen poistaa myös kaikki tilin pääsyavaimet; voit lisätä ne uudelleen kirjauduttuasi sisään.',
  },
  passwordChanged: {
    subject: 'Salasanasi on vaihdettu',
    changed:
      'Tilisi {{email}} salasana vaihdettiin {{time}} verkosta {{network}}. Tilin kaikki muut istunnot on kirjattu ulos.',
    notYou:
      'Jos et tehnyt tätä itse, palauta salasanasi heti kirjautumissivun linkillä ”Unohditko salasanasi?” ja ota yhteyttä ylläpitäjääsi.',
  },
  passkey: {
    addedSubject: 'Tiliisi lisättiin pääsyavain',
    added: 'Pääsyavain {{name}} lisättiin tiliisi {{email}}. Voit nyt kirjautua sillä ilman salasanaa.',
    removedSubject: 'Tililtäsi poistettiin pääsyavain',
    removed: 'Pääsyavain {{name}} poistettiin tililtäsi {{email}}. Sillä ei voi enää kirjautua.',
    notYou:
      'Jos tämä et ollut sinä, palauta salasanasi heti (se poistaa myös kaikki pääsyavaimet) ja ilmoita asiasta ylläpitäjällesi.',
    notYouAdded:
      'Jos tämä et ollut sinä, poista pääsyavain tällä linkillä (voimassa {{days}} päivää), palauta sitten salasanasi – se poistaa myös kaikki pääsyavaimet – ja ilmoita asiasta ylläpitäjällesi.',
    removeAction: 'Poista tämä pääsyavain',
  },
  invitation: {
    subject: 'Tilisi organisaatiossa {{organisation}}',
    intro:
      '{{organisation}} on luonut sinulle tilin. Kirjaudut osoitteella {{email}}. Avaa tämä linkki {{days}} päivän kuluessa ja valitse salasanasi:',
    action: 'Valitse salasanasi',
    expired: 'Jos linkki on vanhentunut, pyydä ylläpitäjää lähettämään uusi kutsu.',
  },
  personalAlarm: {
    subject: 'Henkilöhälytys: {{owner}}',
    text: 'Henkilöhälytys käyttäjältä {{owner}}: {{text}}',
    location: 'Viimeisin tunnettu sijainti: {{coordinates}} {{mapUrl}}',
    ranOut: 'Ajastin päättyi {{time}}.',
    repeats:
      'Toistettuja hälytyksiä {{since}} alkaen: {{count}}. Tämä viesti koskee niitä kaikkia; viimeisin näytetään.',
    warningSubject: 'Henkilöhälytyksesi laukeaa pian',
    warning: 'Henkilöhälytyksesi laukeaa {{inTime}}, ellet pysäytä tai jatka sitä: {{text}}',
  },
  personalAlarmChanged: {
    subject: '{{actor}} muutti henkilöhälytystäsi',
    intro: '{{actor}} muutti henkilöhälytystäsi "{{text}}".',
    stopped: 'Ajastin pysäytettiin: hälytystä ei lähetetä.',
    started: 'Ajastin käynnistettiin: hälytys laukeaa {{time}}, ellei sitä pysäytetä.',
    moved: 'Hälytys laukeaa nyt {{time}} (aiemmin {{previous}}).',
    newText: 'Teksti on nyt: {{text}}',
    warningOn: 'Minuuttia aiemmin tuleva varoitus on nyt päällä.',
    warningOff: 'Minuuttia aiemmin tuleva varoitus on nyt pois päältä.',
    location: 'Sijaintia muutettiin.',
    recipients: 'Hälytyksen vastaanottajia muutettiin.',
    contact: 'Jos et odottanut tätä, ota yhteyttä käyttäjään {{actor}} tai ylläpitäjääsi.',
    contactAdministrator: 'Jos et odottanut tätä, ota yhteyttä ylläpitäjääsi.',
    someone: 'Joku',
  },
  externalMessage: {
    emailSubject: 'Viesti lähettäjältä {{sender}}',
    confirmEmail: 'Vahvista, että olet lukenut tämän viestin: {{url}}',
    confirmPrompt: 'Vahvista, että olet lukenut tämän viestin.',
    confirmAction: 'Vahvista',
    confirmSms: 'Vahvista: {{url}}',
    voiceIntro: 'Viesti lähettäjältä {{sender}}.',
  },
  confirmationPage: {
    invalidTitle: 'Virheellinen linkki',
    invalidHeading: 'Tämä linkki ei ole voimassa',
    invalidText: 'Tarkista, että avasit koko linkin viestistä.',
    notAllowedTitle: 'Ei sallittu',
    messageFrom: 'Viesti lähettäjältä {{sender}}:',
    confirmTitle: 'Vahvista, että olet lukenut viestin',
    confirmButton: 'Olen lukenut tämän viestin',
    doneTitle: 'Vahvistettu',
    doneHeading: 'Kiitos',
    doneText: 'Vahvistit lukeneesi tämän viestin.',
  },
  unusualVolume: {
    subject: 'Poikkeuksellisen paljon lähetyksiä: {{organisation}}',
    alarms: '{{count}} henkilöhälytystä tehtiin tunnin aikana alkaen {{from}}; tavallisesti {{usual}} tunnissa.',
    messages: '{{count}} ulkoista viestiä lähetettiin tunnin aikana alkaen {{from}}; tavallisesti {{usual}} tunnissa.',
    alarmsAdvice:
      'Jokainen hälytys lähtee edelleen (toistot samoille vastaanottajille kootaan yhteen). Jos kyse ei ole todellisesta hätätilanteesta, tarkista kuka ne teki.',
    messagesAdvice:
      'Jos kyse ei ole todellisesta kriisistä, tarkista kuka ne lähetti ja käytetäänkö lähettäjätiliä väärin.',
  },
};
