import { TextInput, type TextInputProps } from './text-input';

type FixedAttributes = 'name' | 'type' | 'inputMode' | 'autoComplete' | 'autoCapitalize' | 'spellCheck';

interface EmailInputProps extends Omit<TextInputProps, FixedAttributes> {
  /** The browser may offer the site's passkeys in this field's autofill (`autocomplete="username webauthn"`). */
  passkeyAutofill?: boolean;
}

/** The email field of every form: the same keyboard, autofill and no autocorrect everywhere. */
export function EmailInput({ passkeyAutofill = false, ...props }: EmailInputProps) {
  return (
    <TextInput
      name="email"
      type="email"
      inputMode="email"
      autoComplete={passkeyAutofill ? 'username webauthn' : 'username'}
      autoCapitalize="none"
      spellCheck={false}
      {...props}
    />
  );
}
