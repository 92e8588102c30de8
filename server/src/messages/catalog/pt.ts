import type { Catalog } from './en';

// Brazilian Portuguese, like the sign-in app (senha, você).
export const pt: Catalog = {
  email: {
    linkFallback: 'Se o botão não funcionar, copie este link no seu navegador:',
    automatic: 'Esta mensagem foi enviada automaticamente. As respostas não são lidas.',
  },
  otp: {
    emailSubject: 'Seu código de verificação: {{code}}',
    emailCode: 'Seu código de verificação é {{code}}.',
    emailValidity: 'Ele é válido por {{minutes}} minutos. Se você não tentou entrar, pode ignorar esta mensagem.',
    // "ó" makes the SMS Unicode (70 characters a segment): short enough for one segment with the code line.
    sms: 'Código: {{code}}. Expira em {{minutes}} minutos.',
  },
  passwordReset: {
    subject: 'Redefina sua senha',
    intro:
      'Alguém pediu para redefinir a senha da sua conta {{email}}. Para escolher uma nova senha, abra este link em até {{minutes}} minutos:',
    action: 'Escolher uma nova senha',
    ignore: 'Se não foi você, ignore esta mensagem; sua senha continua a mesma.',
    passkeys:
      'Ao escolher uma nova senha, todas as chaves de acesso da conta também são removidas; você pode adicioná-las novamente depois de entrar.',
  },
  passwordChanged: {
    subject: 'Sua senha foi alterada',
    changed:
      'A senha da sua conta {{email}} foi alterada em {{time}}, a partir da rede {{network}}. Todas as outras sessões da conta foram encerradas.',
    notYou:
      'Se não foi você, redefina sua senha imediatamente com “Esqueceu sua senha?” na página de login e avise seu administrador.',
  },
  passkey: {
    addedSubject: 'Uma chave de acesso foi adicionada à sua conta',
    added: 'A chave de acesso {{name}} foi adicionada à sua conta {{email}}. Agora você pode entrar com ela sem senha.',
    removedSubject: 'Uma chave de acesso foi removida da sua conta',
    removed: 'A chave de acesso {{name}} foi removida da sua conta {{email}}. Ela não pode mais ser usada para entrar.',
    notYou:
      'Se não foi você, redefina sua senha imediatamente (isso também remove todas as chaves de acesso) e avise o administrador.',
    notYouAdded:
      'Se não foi você, remova a chave de acesso com este link (válido por {{days}} dias), depois redefina sua senha, o que também remove todas as chaves de acesso, e avise o administrador.',
    removeAction: 'Remover esta chave de acesso',
  },
  invitation: {
    subject: 'Sua conta em {{organisation}}',
    intro:
      '{{organisation}} criou uma conta para você. Você entra com {{email}}. Abra este link em até {{days}} dias para escolher sua senha:',
    action: 'Escolher sua senha',
    expired: 'Se o link tiver expirado, peça ao seu administrador para enviar um novo convite.',
  },
  personalAlarm: {
    subject: 'Alarme pessoal: {{owner}}',
    text: 'Alarme pessoal de {{owner}}: {{text}}',
    location: 'Última localização conhecida: {{coordinates}} {{mapUrl}}',
    ranOut: 'O temporizador terminou em {{time}}.',
    repeats: 'Alarmes repetidos desde {{since}}: {{count}}. Esta mensagem representa todos; é mostrado o mais recente.',
    warningSubject: 'Seu alarme pessoal vai disparar em breve',
    warning: 'Seu alarme pessoal vai disparar {{inTime}}, a menos que você o pare ou prolongue: {{text}}',
  },
  personalAlarmChanged: {
    subject: '{{actor}} alterou seu alarme pessoal',
    intro: '{{actor}} alterou seu alarme pessoal "{{text}}".',
    stopped: 'O temporizador foi parado: nenhum alarme será enviado.',
    started: 'O temporizador foi iniciado: o alarme vai disparar em {{time}}, a menos que seja parado.',
    moved: 'O alarme agora vai disparar em {{time}} (antes: {{previous}}).',
    newText: 'O texto agora é: {{text}}',
    warningOn: 'O aviso de um minuto antes agora está ativado.',
    warningOff: 'O aviso de um minuto antes agora está desativado.',
    location: 'A localização foi alterada.',
    recipients: 'As pessoas que recebem o alarme foram alteradas.',
    contact: 'Se você não esperava isso, fale com {{actor}} ou com seu administrador.',
    contactAdministrator: 'Se você não esperava isso, fale com seu administrador.',
    someone: 'Alguém',
  },
  externalMessage: {
    emailSubject: 'Mensagem de {{sender}}',
    confirmEmail: 'Confirme que você leu esta mensagem: {{url}}',
    confirmPrompt: 'Confirme que você leu esta mensagem.',
    confirmAction: 'Confirmar',
    confirmSms: 'Confirmar: {{url}}',
    voiceIntro: 'Mensagem de {{sender}}.',
  },
  confirmationPage: {
    invalidTitle: 'Link inválido',
    invalidHeading: 'Este link não é válido',
    invalidText: 'Verifique se você abriu o link completo da mensagem.',
    notAllowedTitle: 'Não permitido',
    messageFrom: 'Mensagem de {{sender}}:',
    confirmTitle: 'Confirme que você leu a mensagem',
    confirmButton: 'Li esta mensagem',
    doneTitle: 'Confirmado',
    doneHeading: 'Obrigado',
    doneText: 'Você confirmou que leu esta mensagem.',
  },
  unusualVolume: {
    subject: 'Volume invulgar em {{organisation}}',
    alarms: 'Foram acionados {{count}} alarmes pessoais na hora a partir de {{from}}; o habitual é {{usual}} por hora.',
    messages:
      'Foram enviadas {{count}} mensagens externas na hora a partir de {{from}}; o habitual é {{usual}} por hora.',
    alarmsAdvice:
      'Todos os alarmes continuam a ser enviados (as repetições para os mesmos destinatários são resumidas). Se não for uma emergência real, verifique quem os acionou.',
    messagesAdvice:
      'Se não for uma crise real, verifique quem as enviou e se uma conta de remetente está a ser usada indevidamente.',
  },
};
