import fc from 'fast-check';

/** Arbitraries of multipart uploads a broken or malicious client sends: truncated, garbled, oversized. */

export interface MultipartCase {
  /** What the case does, for the examples of a failure. */
  shape: string;
  contentType: string;
  body: Buffer;
}

const CRLF = '\r\n';

interface Part {
  name: string;
  filename: string | null;
  type: string | null;
  content: Buffer;
}

function form(boundary: string, parts: Part[], { close = true } = {}): Buffer {
  const chunks: Buffer[] = [];
  for (const p of parts) {
    const disposition = `Content-Disposition: form-data; name="${p.name}"${p.filename === null ? '' : `; filename="${p.filename}"`}`;
    const type = p.type === null ? '' : `${CRLF}Content-Type: ${p.type}`;
    chunks.push(Buffer.from(`--${boundary}${CRLF}${disposition}${type}${CRLF}${CRLF}`), p.content, Buffer.from(CRLF));
  }
  if (close) chunks.push(Buffer.from(`--${boundary}--${CRLF}`));
  return Buffer.concat(chunks);
}

const boundaryArb = fc.oneof(
  fc.constant('b0undary'),
  fc.stringMatching(/^[0-9A-Za-z'()+_,./:=?-]{1,70}$/),
  fc.constantFrom('x'.repeat(200), '--', 'a b', 'é'),
);

/** File contents whose size sits around `limit`, or well under or over it. */
const contentArb = (limit: number) =>
  fc.oneof(
    fc.uint8Array({ maxLength: 256 }).map((a) => Buffer.from(a)),
    fc.integer({ min: limit - 2, max: limit + 2 }).map((n) => Buffer.alloc(n, 'a')),
    fc.integer({ min: limit + 3, max: limit * 20 }).map((n) => Buffer.alloc(n, 'z')),
    // Bytes that look like boundaries and headers inside the content.
    fc.constantFrom(`${CRLF}--b0undary`, `--b0undary--${CRLF}`, `${CRLF}${CRLF}`, '\0\0\0').map((s) => Buffer.from(s.repeat(8))),
  );

const partArb = (limit: number): fc.Arbitrary<Part> =>
  fc.record({
    name: fc.oneof(fc.constant('file'), fc.constantFrom('', 'files', 'file[]', 'data', '"', 'файл')),
    filename: fc.oneof(
      fc.constant('doc.pdf'),
      fc.constant(null),
      fc.constantFrom('', '../../etc/passwd', 'укр.doc', 'a"b', '%00.pdf', 'x'.repeat(2000)),
    ),
    type: fc.oneof(
      fc.constant('application/pdf'),
      fc.constant(null),
      fc.constantFrom('', 'text/html', 'multipart/form-data; boundary=b0undary', 'a/b; c'),
    ),
    content: contentArb(limit),
  });

/** A well-formed form (which may still be refused: no `file` part, too large), to be broken by the others. */
const validArb = (limit: number) =>
  fc.record({ boundary: boundaryArb, parts: fc.array(partArb(limit), { minLength: 0, maxLength: 3 }) }).map(({ boundary, parts }) => ({
    boundary,
    body: form(boundary, parts),
  }));

/** Every hostile shape, each with the Content-Type that goes with it. */
export function hostileMultipart(limit: number): fc.Arbitrary<MultipartCase> {
  const valid = validArb(limit);
  const typed = (shape: string) => (v: { boundary: string; body: Buffer }) => ({
    shape,
    contentType: `multipart/form-data; boundary=${v.boundary}`,
    body: v.body,
  });
  return fc.oneof(
    valid.map(typed('well-formed')),
    // Cut anywhere, the closing boundary included: the crash of issue 17.
    fc
      .tuple(valid, fc.double({ min: 0, max: 1, noNaN: true }))
      .map(([v, at]) => typed('truncated')({ ...v, body: v.body.subarray(0, Math.floor(v.body.length * at)) })),
    fc
      .tuple(
        valid,
        fc.array(fc.tuple(fc.double({ min: 0, max: 1, noNaN: true }), fc.integer({ min: 0, max: 255 })), { minLength: 1, maxLength: 8 }),
      )
      .map(([v, flips]) => {
        const body = Buffer.from(v.body);
        for (const [at, byte] of flips) if (body.length) body[Math.floor(at * (body.length - 1))] = byte;
        return typed('garbled')({ ...v, body });
      }),
    fc
      .tuple(valid, fc.uint8Array({ maxLength: 512 }))
      .map(([v, junk]) => typed('junk appended')({ ...v, body: Buffer.concat([v.body, Buffer.from(junk)]) })),
    fc
      .tuple(boundaryArb, fc.array(partArb(limit), { minLength: 17, maxLength: 24 }))
      .map(([boundary, parts]) => typed('too many parts')({ boundary, body: form(boundary, parts) })),
    fc
      .tuple(boundaryArb, partArb(limit))
      .map(([boundary, part]) => typed('never closed')({ boundary, body: form(boundary, [part], { close: false }) })),
    fc.tuple(boundaryArb, fc.integer({ min: 1, max: 8 })).map(([boundary, n]) =>
      typed('endless part header')({
        boundary,
        body: Buffer.from(`--${boundary}${CRLF}${`X-Header-${'h'.repeat(1000)}: v${CRLF}`.repeat(n * 20)}`),
      }),
    ),
    fc
      .tuple(
        validArb(limit),
        fc.constantFrom(
          'multipart/form-data',
          'multipart/form-data; boundary=',
          'multipart/form-data; boundary=""',
          'multipart/form-data; boundary=other',
          'multipart/mixed; boundary=b0undary',
          'multipart/form-data; charset=utf-8',
          'multipart/form-data; boundary=b0undary; boundary=second',
        ),
      )
      .map(([v, contentType]) => ({ shape: 'bad Content-Type', contentType, body: v.body })),
    fc
      .uint8Array({ maxLength: 4096 })
      .map((junk) => ({ shape: 'random bytes', contentType: 'multipart/form-data; boundary=b0undary', body: Buffer.from(junk) })),
  );
}
