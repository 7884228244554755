/**
 * The tags and date of each item of an axis (issue 41 item 1, docs/formats.md §1): what the item
 * is about and when it was written, each the same on every row of the item. Held apart from the
 * outcome columns so that an axis whose rows carry neither costs nothing: the per-item arrays are
 * allocated at the first row that carries the field. Tags are interned twice, each tag once and
 * each distinct set of tags once (an MMLU axis of 14,000 items has 57 sets), so an item costs
 * four bytes per field however many tags it has.
 */

function grow(a: Int32Array, size: number): Int32Array {
  if (size <= a.length) return a;
  const next = new Int32Array(Math.max(size, a.length * 2, 1024));
  next.set(a);
  return next;
}

export class ItemFacets {
  /** Every distinct tag, in the order first seen. */
  readonly tagNames: string[] = [];
  private readonly tagIndex = new Map<string, number>();
  /** Every distinct set of tags (indexes into tagNames, sorted by tag); set id k is `tagSets[k - 1]`. */
  readonly tagSets: (readonly number[])[] = [];
  private readonly tagSetIndex = new Map<string, number>();
  /** Per item: its tag-set id, 0 when its rows carry none. Absent until a row carries tags. */
  private itemTagSet: Int32Array | undefined;
  /** Every distinct item date; date id k is `dates[k - 1]`. */
  readonly dates: string[] = [];
  private readonly dateIndex = new Map<string, number>();
  /** Per item: its date id, 0 when its rows carry none. Absent until a row carries a date. */
  private itemDate: Int32Array | undefined;

  /** Whether any row of the axis carries tags or a date: a plain field, read on every row of the axis. */
  used = false;

  /** Whether any row of the axis carries tags. */
  get tagged(): boolean {
    return this.itemTagSet !== undefined;
  }

  /** Whether any row of the axis carries an item date. */
  get dated(): boolean {
    return this.itemDate !== undefined;
  }

  /**
   * Records the tags and date of the first row of item `idx`; on a later row of the item, checks
   * them against it and returns the field that differs (absent on one row and present on another
   * differs too: the same on every row of an item).
   */
  note(idx: number, first: boolean, tags: readonly string[] | undefined, date: string | undefined): string | undefined {
    if (!first) {
      // Compared without interning: a later row of an item only has to match the first.
      if (!this.sameTags(at(this.itemTagSet, idx), tags)) return 'tags';
      const known = at(this.itemDate, idx);
      if ((known === 0 ? undefined : this.dates[known - 1]) !== date) return 'item_date';
      return undefined;
    }
    const setId = tags === undefined ? 0 : this.internSet(tags);
    const dateId = date === undefined ? 0 : this.internDate(date);
    if (setId !== 0 || dateId !== 0) this.used = true;
    if (setId !== 0) {
      this.itemTagSet = grow(this.itemTagSet ?? new Int32Array(0), idx + 1);
      this.itemTagSet[idx] = setId;
    }
    if (dateId !== 0) {
      this.itemDate = grow(this.itemDate ?? new Int32Array(0), idx + 1);
      this.itemDate[idx] = dateId;
    }
    return undefined;
  }

  /** Whether `tags` (distinct, as the reader checks) is tag set `setId` (0: none), in any order. */
  private sameTags(setId: number, tags: readonly string[] | undefined): boolean {
    if (setId === 0 || tags === undefined) return setId === 0 && tags === undefined;
    const set = this.tagSets[setId - 1]!;
    if (set.length !== tags.length) return false;
    for (const t of tags) {
      const id = this.tagIndex.get(t);
      if (id === undefined || !set.includes(id)) return false;
    }
    return true;
  }

  /** The tags of item `idx`, sorted, or undefined when its rows carry none. */
  tagsOf(idx: number): readonly string[] | undefined {
    const id = at(this.itemTagSet, idx);
    return id === 0 ? undefined : this.tagSets[id - 1]!.map((t) => this.tagNames[t]!);
  }

  /** The date of item `idx` (`YYYY-MM-DD` or `YYYY-MM`), or undefined when its rows carry none. */
  dateOf(idx: number): string | undefined {
    const id = at(this.itemDate, idx);
    return id === 0 ? undefined : this.dates[id - 1];
  }

  private internSet(tags: readonly string[]): number {
    const ids = tags.map((t) => {
      let id = this.tagIndex.get(t);
      if (id === undefined) {
        id = this.tagNames.length;
        this.tagNames.push(t);
        this.tagIndex.set(t, id);
      }
      return id;
    });
    // Sorted by tag, not by id, so that a set's order never depends on which row came first.
    ids.sort((a, b) => (this.tagNames[a]! < this.tagNames[b]! ? -1 : 1));
    const key = ids.join(',');
    let setId = this.tagSetIndex.get(key);
    if (setId === undefined) {
      this.tagSets.push(ids);
      setId = this.tagSets.length;
      this.tagSetIndex.set(key, setId);
    }
    return setId;
  }

  private internDate(date: string): number {
    let id = this.dateIndex.get(date);
    if (id === undefined) {
      this.dates.push(date);
      id = this.dates.length;
      this.dateIndex.set(date, id);
    }
    return id;
  }
}

function at(a: Int32Array | undefined, idx: number): number {
  return a !== undefined && idx < a.length ? a[idx]! : 0;
}
