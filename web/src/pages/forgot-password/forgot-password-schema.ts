import { object } from 'yup';
import { emailField } from '../../app/email-field';

/** The same messages as the login form: 'Type in your email', 'Incorrect email'. */
export const forgotPasswordSchema = object({ email: emailField() });
