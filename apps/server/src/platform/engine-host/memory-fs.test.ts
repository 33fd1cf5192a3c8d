/**
 * Proves MemoryFs models a disk with a page cache the way the journal relies on Linux to behave: reads see
 * every write, a crash keeps only what datasync / fsyncDir made durable plus what the crash options say about
 * the rest (dropped, kept, torn at a byte count, zero-filled), unsynced creations and renames revert, a failed
 * fdatasync leaves its bytes undurable even after a "successful" retry, bits flip on disk, and clones and
 * seeded random crashes are deterministic. Each test builds a small disk and compares exact bytes.
 */
import { describe, expect, it } from 'vitest';
import { Prng } from '../../domains/market-jobs/prng';
import { MemoryFs } from './memory-fs';

const b = (s: string) => Buffer.from(s);

/** A disk with /d/f holding "synced" durably and "+dirty" only in the page cache. */
async function diskWithDirtyTail(): Promise<MemoryFs> {
  const fs = new MemoryFs();
  await fs.mkdirp('/d');
  const fh = await fs.openAppend('/d/f');
  await fh.write(b('synced'));
  await fh.datasync();
  await fs.fsyncDir('/d');
  await fh.write(b('+dirty'));
  await fh.close();
  return fs;
}

describe('MemoryFs', () => {
  it('reads see every write; datasync makes bytes durable and is counted', async () => {
    const fs = await diskWithDirtyTail();
    expect((await fs.readFile('/d/f')).toString()).toBe('synced+dirty');
    expect(fs.inspect('/d/f')).toEqual({ current: b('synced+dirty'), durable: b('synced') });
    expect(fs.stats).toMatchObject({ writes: 2, bytesWritten: 12, datasyncs: 1, failedDatasyncs: 0 });
    expect(await fs.readdir('/d')).toEqual(['f']);
    expect(await fs.readdir('/missing')).toEqual([]);
    await expect(fs.readFile('/d/nope')).rejects.toMatchObject({ code: 'ENOENT' });
    await expect(fs.openAppend('/nodir/f')).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('a crash keeps the durable bytes plus none, all, a torn prefix or zeros of the unsynced suffix', async () => {
    const fs = await diskWithDirtyTail();
    expect((await fs.crash().readFile('/d/f')).toString()).toBe('synced');
    expect((await fs.crash({ data: 'drop' }).readFile('/d/f')).toString()).toBe('synced');
    expect((await fs.crash({ data: 'keep' }).readFile('/d/f')).toString()).toBe('synced+dirty');
    expect((await fs.crash({ data: { tornAt: 3 } }).readFile('/d/f')).toString()).toBe('synced+di');
    expect((await fs.crash({ data: { tornAt: 99 } }).readFile('/d/f')).toString()).toBe('synced+dirty');
    expect(await fs.crash({ data: 'zero' }).readFile('/d/f')).toEqual(Buffer.concat([b('synced'), Buffer.alloc(6)]));
    // The per-file function sees the path and the unsynced byte count.
    const seen: Array<[string, number]> = [];
    await fs.crash({ data: (file, n) => (seen.push([file, n]), 'drop') }).readFile('/d/f');
    expect(seen).toEqual([['/d/f', 6]]);
    // The original is untouched, and the crashed disk is fully durable.
    const after = fs.crash({ data: 'keep' });
    expect(after.inspect('/d/f')).toEqual({ current: b('synced+dirty'), durable: b('synced+dirty') });
    expect(fs.inspect('/d/f')!.durable).toEqual(b('synced'));
  });

  it('a file whose creation was never dir-fsynced disappears; an unsynced rename or removal reverts', async () => {
    const fs = new MemoryFs();
    await fs.mkdirp('/d');
    const fh = await fs.openAppend('/d/new');
    await fh.write(b('data'));
    await fh.datasync();
    expect(await fs.crash().readdir('/d')).toEqual([]);
    expect(await fs.crash({ dirs: 'keep' }).readdir('/d')).toEqual(['new']);
    await fs.fsyncDir('/d');
    expect((await fs.crash().readFile('/d/new')).toString()).toBe('data');

    await fs.rename('/d/new', '/d/final');
    expect(await fs.readdir('/d')).toEqual(['final']);
    expect(await fs.crash().readdir('/d')).toEqual(['new']);
    await fs.fsyncDir('/d');
    expect(await fs.crash().readdir('/d')).toEqual(['final']);

    await fs.rm('/d/final');
    await fs.rm('/d/final'); // no error when missing
    expect(await fs.readdir('/d')).toEqual([]);
    expect((await fs.crash().readFile('/d/final')).toString()).toBe('data');
    await fs.fsyncDir('/d');
    expect(await fs.crash().readdir('/d')).toEqual([]);
  });

  it('mkdirp makes every directory it creates durable, and a renamed-over target is replaced', async () => {
    const fs = new MemoryFs();
    await fs.mkdirp('/data/journal');
    await fs.mkdirp('/data/journal');
    expect(fs.stats.dirSyncs).toBe(2);
    const crashed = fs.crash();
    expect(await crashed.readdir('/')).toEqual(['data']);
    expect(await crashed.readdir('/data')).toEqual(['journal']);

    for (const [name, text] of [
      ['a', 'old'],
      ['b', 'new'],
    ] as const) {
      const fh = await fs.openTruncate(`/data/${name}`);
      await fh.write(b(text));
      await fh.datasync();
      await fh.close();
    }
    await fs.fsyncDir('/data');
    await fs.rename('/data/b', '/data/a');
    await fs.fsyncDir('/data');
    const after = fs.crash();
    expect(await after.readdir('/data')).toEqual(['a', 'journal']);
    expect((await after.readFile('/data/a')).toString()).toBe('new');
    const fh = await fs.openAppend('/data/file');
    await fh.close();
    await expect(fs.mkdirp('/data/file/x')).rejects.toMatchObject({ code: 'ENOTDIR' });
  });

  it('truncate cuts durably; openTruncate is undone by a crash before its datasync', async () => {
    const fs = await diskWithDirtyTail();
    await fs.truncate('/d/f', 4);
    expect(fs.inspect('/d/f')).toEqual({ current: b('sync'), durable: b('sync') });
    expect((await fs.crash({ data: 'keep' }).readFile('/d/f')).toString()).toBe('sync');

    const fh = await fs.openTruncate('/d/f');
    await fh.write(b('rewritten'));
    expect((await fs.readFile('/d/f')).toString()).toBe('rewritten');
    expect((await fs.crash().readFile('/d/f')).toString()).toBe('sync');
    expect((await fs.crash({ data: 'keep' }).readFile('/d/f')).toString()).toBe('rewritten');
    await fh.datasync();
    expect((await fs.crash().readFile('/d/f')).toString()).toBe('rewritten');
  });

  it('a failed fdatasync rejects with EIO once; a later "successful" one does not make those bytes durable', async () => {
    const fs = new MemoryFs();
    await fs.mkdirp('/d');
    const fh = await fs.openAppend('/d/f');
    await fs.fsyncDir('/d');
    await fh.write(b('AAAA'));
    await fh.datasync();
    await fh.write(b('BBBB'));
    fs.failNextDatasync();
    await expect(fh.datasync()).rejects.toMatchObject({ code: 'EIO', syscall: 'fdatasync' });
    expect(fs.stats).toMatchObject({ datasyncs: 1, failedDatasyncs: 1 });
    // Without a retry the crash decides: the bytes were written back, or not.
    expect((await fs.crash({ data: 'keep' }).readFile('/d/f')).toString()).toBe('AAAABBBB');
    expect((await fs.crash({ data: 'drop' }).readFile('/d/f')).toString()).toBe('AAAA');
    // A retry "succeeds" but the failed pages were marked clean: after a crash they read as zeros.
    await fh.write(b('CCCC'));
    await fh.datasync();
    expect((await fs.readFile('/d/f')).toString()).toBe('AAAABBBBCCCC');
    expect(await fs.crash().readFile('/d/f')).toEqual(Buffer.concat([b('AAAA'), Buffer.alloc(4), b('CCCC')]));
  });

  it('an injected write failure writes a prefix and rejects; an injected fsyncDir failure keeps the entries unsynced', async () => {
    const fs = new MemoryFs();
    await fs.mkdirp('/d');
    const fh = await fs.openAppend('/d/f');
    fs.failNextWrite(3);
    await expect(fh.write(b('abcdef'))).rejects.toMatchObject({ code: 'EIO', syscall: 'write' });
    expect((await fs.readFile('/d/f')).toString()).toBe('abc');
    fs.failNextFsyncDir();
    await expect(fs.fsyncDir('/d')).rejects.toMatchObject({ code: 'EIO' });
    expect(await fs.crash().readdir('/d')).toEqual([]);
    await fs.fsyncDir('/d');
    expect(await fs.crash().readdir('/d')).toEqual(['f']);
    await fh.close();
    await expect(fh.write(b('x'))).rejects.toMatchObject({ code: 'EBADF' });
  });

  it('flipBit changes the current and the durable byte', async () => {
    const fs = await diskWithDirtyTail();
    fs.flipBit('/d/f', 0, 0); // 's' 0x73 -> 'r' 0x72, durable and current
    fs.flipBit('/d/f', 7, 5); // 'd' 0x64 -> 'D' 0x44, only in the unsynced tail
    expect(fs.inspect('/d/f')).toEqual({ current: b('rynced+Dirty'), durable: b('rynced') });
    expect(() => fs.flipBit('/d/f', 12, 0)).toThrow(/past the end/);
  });

  it('clone is independent; a seeded random crash is deterministic', async () => {
    const fs = await diskWithDirtyTail();
    const copy = fs.clone();
    const fh = await copy.openAppend('/d/f');
    await fh.write(b('!'));
    expect((await fs.readFile('/d/f')).toString()).toBe('synced+dirty');
    expect(copy.inspect('/d/f')).toEqual({ current: b('synced+dirty!'), durable: b('synced') });

    const outcomes = async (seed: number) => {
      const rng = new Prng(seed);
      const out: string[] = [];
      for (let i = 0; i < 8; i++) out.push((await fs.crash({ rng }).readFile('/d/f')).toString('hex'));
      return out;
    };
    const first = await outcomes(42);
    expect(await outcomes(42)).toEqual(first);
    // Every outcome is the durable prefix plus some fate of the 6 unsynced bytes.
    for (const hex of first) expect(Buffer.from(hex, 'hex').subarray(0, 6).toString()).toBe('synced');
  });
});
