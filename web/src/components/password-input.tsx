import { type KeyboardEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Icon } from './icon';
import { TextInput, type TextInputProps } from './text-input';

export type PasswordInputProps = Omit<TextInputProps, 'type' | 'trailing' | 'notice'>;

/** A password field with a show/hide toggle and a warning while Caps Lock is on. */
export function PasswordInput({ onKeyDown, onKeyUp, onBlur, ...props }: PasswordInputProps) {
  const { t } = useTranslation();
  const [visible, setVisible] = useState(false);
  const [capsLock, setCapsLock] = useState(false);
  // One name whatever the state, which aria-pressed carries: a name that changed with it was read out twice
  // ("Hide password, pressed").
  const toggleLabel = t('passwordInput.show');
  const sense = (event: KeyboardEvent<HTMLInputElement>) => setCapsLock(event.getModifierState('CapsLock'));
  return (
    <TextInput
      {...props}
      type={visible ? 'text' : 'password'}
      autoCapitalize="none"
      spellCheck={false}
      notice={capsLock ? t('passwordInput.capsLock') : undefined}
      onKeyDown={(event) => {
        sense(event);
        onKeyDown?.(event);
      }}
      onKeyUp={(event) => {
        sense(event);
        onKeyUp?.(event);
      }}
      onBlur={(event) => {
        setCapsLock(false);
        onBlur?.(event);
      }}
      trailing={
        <button
          type="button"
          className="field__toggle"
          aria-controls={props.id}
          aria-pressed={visible}
          aria-label={toggleLabel}
          title={toggleLabel}
          onClick={() => setVisible((shown) => !shown)}
        >
          <Icon name={visible ? 'eye-off' : 'eye'} />
        </button>
      }
    />
  );
}
