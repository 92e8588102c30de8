// Who the demo data consists of, per region: its tenants and its accounts (all with the password below).
import type { RegionId } from '../config';

export const demoPassword = 'Demo-Password-1!';

interface DemoUser {
  email: string;
  name: string;
  title: string | null;
  phone: string | null;
  otpEmail: boolean;
  otpSms: boolean;
  /** Indexes into the region's tenants. */
  tenants: number[];
  admin: boolean;
}

const europe = ['eu-north-1', 'se-sto'];

export function demoUsersFor(region: RegionId): DemoUser[] {
  const users: DemoUser[] = europe.includes(region)
    ? [
        {
          email: 'anna@demo.test',
          name: 'Anna Lindqvist',
          title: 'Safety manager',
          phone: '+46700000000',
          otpEmail: false,
          otpSms: false,
          tenants: [0],
          admin: true,
        },
        {
          email: 'erik@demo.test',
          name: 'Erik Johansson',
          title: 'Caretaker',
          phone: null,
          otpEmail: true,
          otpSms: false,
          tenants: [0],
          admin: false,
        },
        {
          email: 'sofia@demo.test',
          name: 'Sofia Berg',
          title: 'Nurse',
          phone: '+46700000001',
          otpEmail: true,
          otpSms: true,
          tenants: [1],
          admin: false,
        },
        {
          email: 'maria@demo.test',
          name: 'Maria Santos',
          title: 'Consultant',
          phone: null,
          otpEmail: false,
          otpSms: false,
          tenants: [0, 1],
          admin: false,
        },
        {
          // For trying passkeys: no passkey yet; after a sign-in with the password and the email code the sign-in
          // app offers to add one, which then signs in alone, or in place of the code (README, Passkeys).
          email: 'pia@demo.test',
          name: 'Pia Nilsson',
          title: 'Security officer',
          phone: null,
          otpEmail: true,
          otpSms: false,
          tenants: [0],
          admin: false,
        },
      ]
    : [
        {
          email: 'maria@demo.test',
          name: 'Maria Santos',
          title: 'Consultora',
          phone: null,
          otpEmail: false,
          otpSms: false,
          tenants: [1],
          admin: false,
        },
        {
          email: 'joao@demo.test',
          name: 'João Silva',
          title: 'Professor',
          phone: '+5511900000000',
          otpEmail: false,
          otpSms: false,
          tenants: [0],
          admin: true,
        },
      ];
  return users;
}

export function demoTenantsFor(region: RegionId): { name: string; website: string }[] {
  return europe.includes(region)
    ? [
        { name: 'Demo Municipality', website: 'https://municipality.demo.test' },
        { name: 'Demo Hospital', website: 'https://hospital.demo.test' },
      ]
    : [
        { name: 'Escola Demo', website: 'https://escola.demo.test' },
        { name: 'Hospital Demo', website: 'https://hospital-br.demo.test' },
      ];
}
