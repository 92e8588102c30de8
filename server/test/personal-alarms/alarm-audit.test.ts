// The record of a change lists recipients and groups by id in numeric order (personal-alarms.audit.ts `sortedIds`),
// so a change compares and reads the same whatever order the database hands the ids back in. The database answers
// without an ORDER BY, and today's plans happen to answer in id order, so the API alone cannot show the sort.
import { sortedIds } from '../../src/modules/personal-alarms/personal-alarms.audit';

describe('the ids in an alarm change record', () => {
  test('are in numeric order, not in the order of their text', () => {
    expect(sortedIds([100, 9, 10, 2])).toEqual([2, 9, 10, 100]);
  });

  test('leave the list they were read from as it was', () => {
    const ids = [3, 1, 2];
    sortedIds(ids);
    expect(ids).toEqual([3, 1, 2]);
  });
});
