# Regenerates unparse_cases.json with the local CPython (run from testdata/).
import ast, json
cases = ["f(a=1, b=[1, 2], c={'k': (1,)})", "f(1, *a, k=2, **kw)", "a.b.c(d)[0]", "(1).real", "1 .real", "-2 ** 2", "(-2) ** 2", "2 ** -1", "a ** b ** c", "(a ** b) ** c", "a - (b - c)", "(a - b) - c", "a * (b + c)",
 "not a == b", "not (a and b)", "a and b or c", "a and (b or c)", "(a or b) and c", "a < b < c", "(a < b) < c", "a if b else c", "(a if b else c) if d else e", "a if (b if c else d) else e", "lambda: 1", "lambda x, y: x + y",
 "(x := 5)", "f((x := 1))", "f(x for x in y)", "[x for x in y if x if z]", "{k: v for k, v in d.items()}", "{x for x in 'ab'}", "[*a, *b]", "{**a, 'b': 1}", "{1, 2}", "()", "(1,)", "(1, 2)", "a[1:2]", "a[::2]", "a[1:2, 3]", "a[1,]", "a[(1, 2)]", "a[()]",
 "u'abc'", "'it''s'", "\"it's\"", "'a\\nb'", "b'\\x00'", "1e400", "-1e400", "1e-07", "10000000000000000.0", "0x10", "1_000", "...", "[..., None, True, False]", "'é\\u200b'", "~a + -b", "+a", "- - a", "a or b or c", "a and b and c", "f(-1, -1.5, +2)", "x[-1]", "a is not None", "a not in b",
 "f'{x!r:>{w}} and {y}'", "f'{a}b'", "f'{x}' 'lit'", "f\"{x}'s\"", "(a, b) = 1" if False else "a, b", "f(*args)", "f(**{'a': 1})", "[1, [2, [3]]]", "{'a': {'b': {'c': None}}}", "a @ b", "a // b % c", "a << b >> c", "a | b ^ c & d", "(a | b) & c", "f()()", "f()[0]()", "d['k']['j']",
]
out = []
for c in cases:
    out.append({"src": c, "unparse": ast.unparse(ast.parse(c, mode="eval"))})
json.dump(out, open('unparse_cases.json','w'), indent=0, ensure_ascii=False)
for o in out: print(o)
