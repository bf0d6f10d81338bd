import { describe, expect, it } from 'vitest';
import { displayName, initials } from './user-display';

describe('displayName', () => {
  it('joins first and last name', () => {
    expect(displayName({ firstName: 'Ada', lastName: 'Lovelace', email: 'ada@x.io' })).toBe(
      'Ada Lovelace',
    );
  });
  it('uses whichever name part exists', () => {
    expect(displayName({ firstName: 'Ada', lastName: null, email: 'ada@x.io' })).toBe('Ada');
    expect(displayName({ firstName: '  ', lastName: 'Lovelace' })).toBe('Lovelace');
  });
  it('falls back to the e-mail before the @, then to User', () => {
    expect(displayName({ firstName: null, lastName: null, email: 'grace.hopper@navy.mil' })).toBe(
      'grace.hopper',
    );
    expect(displayName({ email: '' })).toBe('User');
    expect(displayName(null)).toBe('User');
  });
});

describe('initials', () => {
  it('takes the first letters of first and last name in upper case', () => {
    expect(initials({ firstName: 'ada', lastName: 'lovelace' })).toBe('AL');
  });
  it('falls back to the first letter of the e-mail, then to U', () => {
    expect(initials({ firstName: 'Ada', lastName: null, email: 'zed@x.io' })).toBe('Z');
    expect(initials({ email: null })).toBe('U');
    expect(initials(undefined)).toBe('U');
  });
});
