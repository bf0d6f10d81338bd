import { describe, expect, it } from 'vitest';
import { EVENT_END_REASONS } from '../contracts/events';
import { END_REASON_WORDS, endReasonSentence, endReasonWords } from './end-reasons';

describe('end reasons in words', () => {
  it('has words for every end reason code, and none of them is the code', () => {
    for (const code of EVENT_END_REASONS) {
      const words = endReasonWords(code);
      expect(words, code).toBeTruthy();
      expect(words, code).not.toContain('_');
      expect(words, code).not.toBe(code);
      expect(words, code).toMatch(/^[a-z][a-zA-Z :,]+$/);
    }
    expect(Object.keys(END_REASON_WORDS).sort()).toEqual([...EVENT_END_REASONS].sort());
  });

  it('says "stopped by you" for a stop of its renter', () => {
    expect(endReasonWords('user')).toBe('stopped by you');
    expect(endReasonSentence('user')).toBe('Stopped by you');
    expect(endReasonSentence('expiry')).toBe('Booked hours ended');
  });

  it('shows no code it does not know, and nothing without one', () => {
    expect(endReasonWords('meteor_strike')).toBe('ended');
    expect(endReasonWords(null)).toBeNull();
    expect(endReasonSentence('')).toBeNull();
  });
});
