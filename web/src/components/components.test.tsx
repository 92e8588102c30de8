import { act, render, renderHook, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ReactNode } from 'react';
import { I18nextProvider } from 'react-i18next';
import { createTestI18n } from '../test/i18n';
import { Button } from './button';
import { Countdown, useCountdown } from './countdown';
import { Icon } from './icon';
import { PasswordInput } from './password-input';
import { Select } from './select';
import { TextInput } from './text-input';
import { EmailInput } from './email-input';

const withI18n = (ui: ReactNode) => render(<I18nextProvider i18n={createTestI18n()}>{ui}</I18nextProvider>);

describe('Button', () => {
  test.each(['primary', 'secondary', 'tertiary'] as const)('when the variant is %s, it is styled as %s', (variant) => {
    render(<Button variant={variant}>Go</Button>);
    expect(screen.getByRole('button', { name: 'Go' }).className).toContain(`button--${variant}`);
  });

  test('when busy, it stays focusable, is marked busy and unavailable, and ignores presses', async () => {
    const pressed = jest.fn();
    render(
      <Button busy onClick={pressed}>
        Go
      </Button>,
    );
    const button = screen.getByRole('button', { name: 'Go' }) as HTMLButtonElement;
    expect([button.disabled, button.getAttribute('aria-disabled'), button.getAttribute('aria-busy')]).toEqual([
      false,
      'true',
      'true',
    ]);
    button.focus();
    expect(document.activeElement).toBe(button);
    await userEvent.setup().click(button);
    expect(pressed).not.toHaveBeenCalled();
  });

  test('when unavailable, a submit button does not submit its form', async () => {
    const submitted = jest.fn((event: Event) => event.preventDefault());
    render(
      <form onSubmit={(event) => submitted(event.nativeEvent)}>
        <input aria-label="Email" />
        <Button type="submit" disabled>
          Go
        </Button>
      </form>,
    );
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Go' }));
    await user.type(screen.getByLabelText('Email'), 'a{Enter}');
    expect(submitted).not.toHaveBeenCalled();
  });

  test('when no type is given, it does not submit forms', () => {
    render(<Button>Go</Button>);
    expect(screen.getByRole('button').getAttribute('type')).toBe('button');
  });
});

describe('TextInput', () => {
  test('has a label, a placeholder and a message tied to the input', () => {
    render(<TextInput id="name" label="Name" placeholder="Anna" message="As in your passport" />);
    const input = screen.getByLabelText('Name');
    expect(input.getAttribute('placeholder')).toBe('Anna');
    expect(document.getElementById(input.getAttribute('aria-describedby')!)?.textContent).toBe('As in your passport');
    expect(input.getAttribute('aria-invalid')).toBeNull();
  });

  test('when there is an error, marks the input invalid and describes it with the error first', () => {
    render(<TextInput id="name" label="Name" message="As in your passport" error="Type in your name" />);
    const input = screen.getByLabelText('Name');
    expect(input.getAttribute('aria-invalid')).toBe('true');
    expect(input.getAttribute('aria-describedby')).toBe('name-error name-message');
    expect(screen.getByText('Type in your name').id).toBe('name-error');
  });
});

describe('PasswordInput', () => {
  test('hides the password until the toggle is pressed, and hides it again on the second press', async () => {
    const user = userEvent.setup();
    withI18n(<PasswordInput id="pw" label="Password" />);
    const input = screen.getByLabelText('Password');
    const toggle = screen.getByRole('button', { name: 'Show password' });
    expect([input.getAttribute('type'), toggle.getAttribute('aria-pressed')]).toEqual(['password', 'false']);
    await user.click(toggle);
    expect([input.getAttribute('type'), toggle.getAttribute('aria-pressed')]).toEqual(['text', 'true']);
    // One name in both states (the state is aria-pressed): a name that changed as well was read out twice.
    expect(toggle.getAttribute('aria-label')).toBe('Show password');
    await user.click(toggle);
    expect(input.getAttribute('type')).toBe('password');
  });
});

describe('Select', () => {
  test('offers the placeholder first, then the options, and shows its error', () => {
    render(
      <Select
        id="r"
        label="Region"
        placeholder="Select region"
        error="Please select region"
        options={[{ value: 'a', label: 'Europe' }]}
      />,
    );
    const select = screen.getByRole('combobox', { name: 'Region' }) as HTMLSelectElement;
    expect(Array.from(select.options, (option) => [option.value, option.textContent])).toEqual([
      ['', 'Select region'],
      ['a', 'Europe'],
    ]);
    expect(select.getAttribute('aria-invalid')).toBe('true');
    expect(screen.getByText('Please select region').id).toBe('r-error');
  });
});

describe('Icon', () => {
  test('without a title, is hidden from assistive technology', () => {
    const { container } = render(<Icon name="eye" />);
    expect(container.querySelector('svg')?.getAttribute('aria-hidden')).toBe('true');
  });

  test('with a title, is an image with that name', () => {
    render(<Icon name="globe" title="Language" />);
    expect(screen.getByRole('img', { name: 'Language' }).tagName.toLowerCase()).toBe('svg');
  });
});

describe('Countdown', () => {
  test('shows Another try in {seconds} with the unit while above zero, the wait as a timer, and nothing at zero', () => {
    const { rerender, container } = withI18n(<Countdown seconds={12} />);
    expect(container.textContent).toBe('Another try in 12 sec');
    expect(screen.getByRole('timer').textContent).toBe('12 sec');
    rerender(
      <I18nextProvider i18n={createTestI18n()}>
        <Countdown seconds={0} />
      </I18nextProvider>,
    );
    expect(screen.queryByRole('timer')).toBeNull();
  });

  test.each([
    ['en', 29, 'Another try in 29 sec'],
    ['sv', 29, 'Nytt försök om 29 s'],
    ['fi', 29, 'Uusi yritys 29 s kuluttua'],
    ['en', 90, 'Another try in 90 sec'],
    ['en', 91, 'Another try in 2 min'],
    ['nl', 3156, 'Nieuwe poging over 53 min'],
    ['pt', 3156, 'Nova tentativa em 53 min'],
  ])('in %s, a wait of %i seconds reads %s (minutes past 90 seconds)', (language, seconds, text) => {
    const { container } = render(
      <I18nextProvider i18n={createTestI18n(language)}>
        <Countdown seconds={seconds} />
      </I18nextProvider>,
    );
    expect(container.textContent).toBe(text);
  });

  test('useCountdown ticks down once a second and stops at zero', () => {
    jest.useFakeTimers({ now: 1_000_000 });
    const { result } = renderHook(() => useCountdown(1_000_000 + 3000));
    expect(result.current).toBe(3);
    act(() => jest.advanceTimersByTime(999));
    expect(result.current).toBe(3);
    act(() => jest.advanceTimersByTime(1));
    expect(result.current).toBe(2);
    act(() => jest.advanceTimersByTime(2000));
    expect(result.current).toBe(0);
    act(() => jest.advanceTimersByTime(5000));
    expect(result.current).toBe(0);
    expect(jest.getTimerCount()).toBe(0);
  });

  test('useCountdown with a past or missing instant is zero', () => {
    expect(renderHook(() => useCountdown(Date.now() - 5000)).result.current).toBe(0);
    expect(renderHook(() => useCountdown(null)).result.current).toBe(0);
  });
});

describe('EmailInput', () => {
  test('is a labelled email field with the email keyboard, username autofill and no autocorrect', () => {
    render(<EmailInput id="e" label="Email" value="" onChange={() => undefined} />);
    const input = screen.getByLabelText('Email');
    expect(input.getAttribute('type')).toBe('email');
    expect(input.getAttribute('name')).toBe('email');
    expect(input.getAttribute('inputmode')).toBe('email');
    expect(input.getAttribute('autocomplete')).toBe('username');
    expect(input.getAttribute('autocapitalize')).toBe('none');
    expect(input.getAttribute('spellcheck')).toBe('false');
  });
});
