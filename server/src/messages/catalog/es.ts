import type { Catalog } from './en';

export const es: Catalog = {
  email: {
    linkFallback: 'Si el botón no funciona, copia este enlace en tu navegador:',
    automatic: 'Este mensaje se ha enviado automáticamente. Las respuestas no se leen.',
  },
  otp: {
    emailSubject: 'Tu código de verificación: {{code}}',
    emailCode: 'Tu código de verificación es {{code}}.',
    emailValidity:
      'Es válido durante {{minutes}} minutos. Si no has intentado iniciar sesión, puedes ignorar este mensaje.',
    // "ó" makes the SMS Unicode (70 characters a segment): short enough for one segment with the code line.
    sms: 'Código: {{code}}. Caduca en {{minutes}} minutos.',
  },
  passwordReset: {
    subject: 'Restablece tu contraseña',
    intro:
      'Alguien ha pedido restablecer la contraseña de tu cuenta {{email}}. Para elegir una contraseña nueva, abre este enlace en los próximos {{minutes}} minutos:',
    action: 'Elegir una contraseña nueva',
    ignore: 'Si no has sido tú, ignora este mensaje; tu contraseña no cambiará.',
    passkeys:
      'Al elegir una contraseña nueva también se eliminan todas las llaves de acceso de la cuenta; podrás añadirlas de nuevo cuando hayas iniciado sesión.',
  },
  passwordChanged: {
    subject: 'Se ha cambiado tu contraseña',
    changed:
      'La contraseña de tu cuenta {{email}} se cambió el {{time}}, desde la red {{network}}. Se han cerrado todas las demás sesiones de la cuenta.',
    notYou:
      'Si no has sido tú, restablece tu contraseña de inmediato con «¿Has olvidado tu contraseña?» en la página de inicio de sesión y avisa a tu administrador.',
  },
  passkey: {
    addedSubject: 'Se ha añadido una llave de acceso a tu cuenta',
    added:
      'Se ha añadido la llave de acceso {{name}} a tu cuenta {{email}}. Ahora puedes iniciar sesión con ella sin contraseña.',
    removedSubject: 'Se ha eliminado una llave de acceso de tu cuenta',
    removed: 'Se ha eliminado la llave de acceso {{name}} de tu cuenta {{email}}. Ya no sirve para iniciar sesión.',
    notYou:
      'Si no has sido tú, restablece tu contraseña de inmediato (así también se eliminan todas las llaves de acceso) y avisa a tu administrador.',
    notYouAdded:
      'Si no has sido tú, elimina la llave de acceso con este enlace (válido durante {{days}} días), restablece después tu contraseña, lo que también elimina todas las llaves de acceso, y avisa a tu administrador.',
    removeAction: 'Eliminar esta llave de acceso',
  },
  invitation: {
    subject: 'Tu cuenta en {{organisation}}',
    intro:
      '{{organisation}} ha creado una cuenta para ti. Inicias sesión con {{email}}. Abre este enlace en los próximos {{days}} días para elegir tu contraseña:',
    action: 'Elegir tu contraseña',
    expired: 'Si el enlace ha caducado, pide a tu administrador que te envíe una invitación nueva.',
  },
  personalAlarm: {
    subject: 'Alarma personal: {{owner}}',
    text: 'Alarma personal de {{owner}}: {{text}}',
    location: 'Última ubicación conocida: {{coordinates}} {{mapUrl}}',
    ranOut: 'El temporizador terminó el {{time}}.',
    repeats:
      'Alarmas repetidas desde el {{since}}: {{count}}. Este mensaje las representa a todas; se muestra la última.',
    warningSubject: 'Tu alarma personal se activará pronto',
    warning: 'Tu alarma personal se activará {{inTime}} si no la detienes o la prolongas: {{text}}',
  },
  personalAlarmChanged: {
    subject: '{{actor}} ha cambiado tu alarma personal',
    intro: '{{actor}} ha cambiado tu alarma personal "{{text}}".',
    stopped: 'El temporizador se ha detenido: no se enviará ninguna alarma.',
    started: 'El temporizador se ha iniciado: la alarma se activará el {{time}} si no se detiene.',
    moved: 'La alarma se activará ahora el {{time}} (antes, el {{previous}}).',
    newText: 'El texto ahora es: {{text}}',
    warningOn: 'El aviso un minuto antes está ahora activado.',
    warningOff: 'El aviso un minuto antes está ahora desactivado.',
    location: 'Se ha cambiado la ubicación.',
    recipients: 'Se han cambiado las personas que reciben la alarma.',
    contact: 'Si no esperabas este cambio, ponte en contacto con {{actor}} o con tu administrador.',
    contactAdministrator: 'Si no esperabas este cambio, ponte en contacto con tu administrador.',
    someone: 'Alguien',
  },
  externalMessage: {
    emailSubject: 'Mensaje de {{sender}}',
    confirmEmail: 'Confirma que has leído este mensaje: {{url}}',
    confirmPrompt: 'Confirma que has leído este mensaje.',
    confirmAction: 'Confirmar',
    confirmSms: 'Confirmar: {{url}}',
    voiceIntro: 'Mensaje de {{sender}}.',
  },
  confirmationPage: {
    invalidTitle: 'Enlace no válido',
    invalidHeading: 'Este enlace no es válido',
    invalidText: 'Comprueba que has abierto el enlace completo del mensaje.',
    notAllowedTitle: 'No permitido',
    messageFrom: 'Mensaje de {{sender}}:',
    confirmTitle: 'Confirma que has leído el mensaje',
    confirmButton: 'He leído este mensaje',
    doneTitle: 'Confirmado',
    doneHeading: 'Gracias',
    doneText: 'Has confirmado que has leído este mensaje.',
  },
  unusualVolume: {
    subject: 'Volumen inusual en {{organisation}}',
    alarms:
      'Se activaron {{count}} alarmas personales en la hora desde el {{from}}; lo habitual es {{usual}} por hora.',
    messages:
      'Se enviaron {{count}} mensajes externos en la hora desde el {{from}}; lo habitual es {{usual}} por hora.',
    alarmsAdvice:
      'Todas las alarmas se siguen enviando (las repeticiones a los mismos destinatarios se resumen). Si no es una emergencia real, compruebe quién las activó.',
    messagesAdvice:
      'Si no es una crisis real, compruebe quién los envió y si se está usando indebidamente una cuenta de remitente.',
  },
};
