import t from 'tap';
import { SplicedJson, type SplicedText } from '../../../src/http/spliced-json';
import { apiJson } from '../../../src/store/api-json';

/** An answer's parts as sent. */
async function partsOf(text: SplicedText) {
  const parts: Buffer[] = [];
  for await (const part of text.parts()) parts.push(part);
  return parts;
}

/** An answer's bytes as sent, joined, as text. */
const sent = async (text: SplicedText) => Buffer.concat(await partsOf(text)).toString();

/** A package-like answer: a list of releases and a member's value written as pieces, the rest as the skeleton. */
function spliced(json: SplicedJson, releases: object[], compiled: object) {
  const pieces = releases.map((release) => json.render(release, 4));
  const list = json.list(pieces, 3);
  const value = json.value(json.render(compiled, 3));
  return json.text({
    uri: 'u',
    records: [
      { ocid: 'o', releases: list, compiledRelease: value },
      { ocid: 'p', releases: json.list([], 3) },
    ],
  });
}

const release = (n: number) => ({
  id: `r${n}`,
  value: { amount: 500 },
  tender: { items: [{ quantity: 1 }, { title: 'Назва "в лапках"\n' }] },
});
const whole = (releases: object[], compiled: object) => ({
  uri: 'u',
  records: [
    { ocid: 'o', releases, compiledRelease: compiled },
    { ocid: 'p', releases: [] },
  ],
});

t.test('pieces spliced into their skeleton give the text the whole value renders to, compact and indented', async (t) => {
  const releases = [release(1), release(2), release(3)];
  for (const indent of [undefined, 4]) {
    const text = spliced(new SplicedJson(indent), releases, release(9));
    t.equal(await sent(text), apiJson(whole(releases, release(9)), indent), `indent ${indent ?? 'none'}`);
    t.equal(text.length, Buffer.byteLength(await sent(text)), 'its length told');
  }
  t.match(await sent(spliced(new SplicedJson(undefined), releases, release(9))), /"amount":500\.0/, 'floats as the API writes them');
});

t.test('a text in the data that looks like a placeholder stays text', async (t) => {
  const json = new SplicedJson(undefined);
  const sneaky = { title: '\u00000:0', other: '"\\u00000' };
  t.equal(await sent(json.text({ a: sneaky, b: json.list([json.render(1, 2)], 1) })), apiJson({ a: sneaky, b: [1] }));
});

t.test('a large answer is sent in parts of about 64 KiB, never joined whole', async (t) => {
  const releases = Array.from({ length: 2000 }, (_, n) => release(n));
  const text = spliced(new SplicedJson(undefined), releases, release(9));
  const parts = await partsOf(text);
  const piece = Buffer.byteLength(apiJson(release(1999)));
  t.ok(parts.length > 1, `${parts.length} parts of ${text.length} bytes`);
  t.ok(
    parts.every((part) => part.length < 64 * 1024 + piece + 1),
    'none longer than 64 KiB and a piece',
  );
  t.ok(
    parts.slice(0, -1).every((part) => part.length >= 64 * 1024),
    'all but the last at least 64 KiB',
  );
  t.equal(Buffer.concat(parts).toString(), apiJson(whole(releases, release(9))));
});

t.test('pieces are counted as they are rendered: past the limit the next one throws; a dropped piece is taken back', async (t) => {
  const over = new Error('too large');
  const json = new SplicedJson(undefined, 100, () => over);
  const piece = json.render('x'.repeat(40), 2);
  json.render('y'.repeat(40), 2);
  json.drop(piece);
  json.render('z'.repeat(40), 2);
  t.throws(() => json.render('w'.repeat(40), 2), over);
  const small = new SplicedJson(undefined, 30, () => over);
  const list = small.list([small.render('x'.repeat(20), 2)], 1);
  t.throws(() => small.text({ list, padding: 'p'.repeat(20) }), over, 'the skeleton counts too');
});
