import { object } from 'yup';
import { emailField } from '../login/login-schema';

/** The same messages as the login form: 'Type in your email', 'Incorrect email'. */
export const forgotPasswordSchema = object({ email: emailField() });
