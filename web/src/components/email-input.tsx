import { TextInput, type TextInputProps } from './text-input';

type FixedAttributes = 'name' | 'type' | 'inputMode' | 'autoComplete' | 'autoCapitalize' | 'spellCheck';

/** The email field of every form: the same keyboard, autofill and no autocorrect everywhere. */
export function EmailInput(props: Omit<TextInputProps, FixedAttributes>) {
  return (
    <TextInput
      name="email"
      type="email"
      inputMode="email"
      autoComplete="username"
      autoCapitalize="none"
      spellCheck={false}
      {...props}
    />
  );
}
