import { Budgets, Storage } from './storage';

/**
 * What Budgets promise when tries of one item race across instances, as an upload delivered
 * twice does: a try refused further on gives the item's room back while another try was answered,
 * and a give-back lands before the item's grant. Whatever the order, the units held (answered and
 * not given back) never pass the limit: the overshoot is none.
 */
export function describeBudgetRaces(instances: (count: number) => Promise<Storage[]>): void {
  const LIMIT = 10;

  async function budgetsOf(count: number): Promise<Budgets[]> {
    const budgets = (await instances(count)).map((storage) => storage.budgets('budget'));
    await budgets[0].prepare();
    return budgets;
  }

  /** One-unit takes of fresh items from every instance at once: how many units they were granted. */
  async function fill(budgets: Budgets[], owner: string): Promise<number> {
    const takes = budgets.flatMap((budget, i) => [0, 1].map((n) => budget.take(owner, `fill ${i}.${n}`, 1, LIMIT)));
    return (await Promise.all(takes)).filter(Boolean).length;
  }

  it('refuses a try of an item whose room another instance gave back, so what is held stays within the limit', async () => {
    const budgets = await budgetsOf(6);
    expect(await Promise.all([budgets[0].take('o', 'file', 4, LIMIT), budgets[1].take('o', 'file', 4, LIMIT)])).toEqual([
      true,
      true,
    ]);
    // One try is refused further on and gives the room back; the other asks again before keeping it.
    await budgets[1].giveBack('o', 'file', 4);
    const kept = await budgets[2].take('o', 'file', 4, LIMIT);
    const held = (kept ? 4 : 0) + (await fill(budgets, 'o'));
    expect(held).toBeLessThanOrEqual(LIMIT);
    expect(kept).toBe(false);
    expect(await budgets[3].used('o')).toBe(held);
  });

  it('refuses a take whose item was given back before its grant, so what is held stays within the limit', async () => {
    const budgets = await budgetsOf(6);
    // The give-back lands first and finds no grant: it frees the units it is told of.
    await budgets[1].giveBack('r', 'file', 4);
    const kept = await budgets[0].take('r', 'file', 4, LIMIT);
    const held = (kept ? 4 : 0) + (await fill(budgets, 'r'));
    expect(held).toBeLessThanOrEqual(LIMIT);
    expect(kept).toBe(false);
    expect(await budgets[2].used('r')).toBe(held);
  });
}
