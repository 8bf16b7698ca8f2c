# Regenerates syntax_cases.json (run from testdata/ with python3.12).
# Expected texts are CPython 3.12's (the reference's version): run it with python3.12.
import json, warnings
warnings.simplefilter('ignore')
cases = [
 "grep<|channel|>commentary(file_name='a')", "f(={})", "f(a=1, 2)", "f(a b)", "f(a=1", "f('abc)", 'f("abc', "f(a))", "f(a]",
 "f(a.b=1)", "f(1=2)", "f(a=1, a=2)", "f(**k, *a)", "f(**k, a)", "f(a→b)", "f(a\u00a0=1)", "f(01)", "1_", "1abc", "0x", "0b2", "0o8", "1e", "1.e5",
 "f(a=)", "", "\n", "  ", "f(\n)", "f(a,\n b=2)", "x\ny", "f(x) g(y)", "f(x for x in y)", "lambda: 1", "lambda x, y=2, *a, **k: x", "f(*)", "f(**)", "f(,)", "f(a,,b)", "[1,2", "{'a': 1", "{'a' 1}", "{'a':}",
 "'''abc", '"""abc\n', "'abc\\'", "f(a=1,)", "(1,)", "()", "f(a)=1", "a=1", "a==1", "f(x=1 if y else 2)", "not", "1 +", "a.1", "a.", ".5", "5.", "1__0", "0_1", "00", "0", "-0", "f(True=1)", "f(None=1)",
 "f(a=1 b=2)", "f(a='x' 'y')", "f('a' b='c')", "f(a=[1,2,]", "f(a=[1,2)", "a[1:2]", "a[::2]", "a[1,2]", "x if y", "x if y else", "1 if 2 else 3", "f(*a, **b)", "'\\N{DASH}'", "'\\N{EM DASH}'", "'\\x4'", "'\\u12'", "'ab\\x4g'", "'é\\x4'", "'\\N{EM DASH'", "'\\N'", "'\\U00110000'", "b'\\xff'", "rb'\\n'", "u'a'", "'a' 'b'", "'a' b'b'", "b'é'",
 "\tf(1)", " f(1)", "f(1)  ", "f(1)\n", "f(1)\n\n", "f(1);", "f(1)#c", "print('a' \\\n 'b')", "$a", "a?", "a!", "f(a:=1)", "f(**a=1)", "f(*a=1)", "f(a, *b, c=1, **d, e=2)", "f(c=1, *b)", "f(**d, e=2)", "f(a=1)(b=2)", "f(x)[0].y", "{**a}", "{*a}", "[*a]", "a if b else c if d else e", "a or b and not c", "a < b < c", "a not in b", "a is not b", "-2**2", "2**-1", "~-1", "a @ b", "yield x", "f(`x`)", "1 = 2", "f(x=1, y)", "f(x=1, *y)", "f(**{'a':1})", "[x for x in y]", "{x: y for x in z}",
 "{1, 2}", "{}", "{1: 2, **a}", "f(a for a in b, c)", "…", "f(a=…)", "'abc\ndef'", "f(\"a\nb\")", "a.b.c(d)", "1.__class__", "1 .real", "0xg", "0b", "1e+", "1_000.000_1e1_0", "0x_ff", "0_0", "09", "09.5", "1e09", "0e0", "f('\\q')",
 "f(a=1, 2", "f(a b", "[1 2", "{1: 2, 3}", "{'a': 1, 'b'}", "f(a 'x')", "(1 2)", "f(a=1 b)", "f(match x)", "f(print x)", "f(_ x)", "f(1 if 2)", "f(a, b c, d)", "f(a, b c", "[1, 2 3", "f(a=1 b=2", "f(a=,b=2)", "1\n  2", "f(1)\n  ", "f(x='a\\\nb')", "f(\n'abc", "'''a\nb\nc", "f(a\n=\n1, 2)", "f(x=[1, 2, 3]))", "f(x=(1]", "f(a,\n]", "f(x=1) )", "f(x=1) '", "f(a b) 'x", "f(a=1, 2) 'x", "1 + ", "f(a.)", "f(.a)", "f(a=1,,)", "a.b.", "f(a=<1)", "f(a=**2)", "f(a=*b)", "f(a=b=c)", "f(a, =1)", "f(lambda x: x, y)", "f(a:b)", "d[1:2:3:4]", "f(*a for a in b)", "1 if 2 else", "a < > b", "not 1 2", "f(a=1, *b, c)", "f(x)(y", "f(a=1\n, b=2)", "f(a=[1\n, 2 3])", "f('a' 'b' c)", "f(b'a' 'b')", "\u00a0f(1)", "f(1)\u00a0", "f(x=\u201chi\u201d)", "f(x='é' 'x')", "f(x=1\t)", "f(x=True, y=false)", "f(**{'a': 1}, **b)", "f(*a, *b)", "f(x=-1.5e-3)", "f(x=1_000)", "f(x=0XfF)", "f(x=0o17, y=0B101)", "f(x=1.)", "f(x=..., y=None)", "f(x=[], y={}, z=())", "f(x=(1))", "f(x={1})", "f(x={1:2,})", "f(x={**a, 'b': 1})", "a[...]", "a[1:]", "a[:, 1]", "-a ** -b", "x.y(z)[0](1)", "not a == b", "a | b ^ c & d << e + f * g ** h", "a // b % c @ d", "(a := 1)", "f'{x!r:>10}'", "f'{x=}'", "f'{{}}'", "f'{x:{y}}'",
 "f(x=1)\r\n", "f(\r\nx=1)", "f(x=1) # comment", "f(x='a' # c\n)", "f(x=1,\n\n y=2)", "  \n f(1)", "f(1)\n\n  \n", "f(1)\n#c\n  g", "f(\\\n1)", "f(1) \\", "f(1) \\ x", "((((1))))", "[" * 201 + "]" * 201, "f(x=[{'a': (1, 2.5, -3e-5, True, None)}])", "a.b.c.d.e(f=g.h)", "f(if=1)", "f(class=1)", "f(x=if)", "import os", "x = 1", "f(x=1) or g()", "f(x=1) and", "f(x=1);g()", "async", "await x", "f(a=1, **{}, b=2)", "f(0777)", "f(0o777)", "f(1e5j)", "f(1_000j)", "ü(1)", "f(ü=1)", "f(x=1.5.2)", "f(x=1..2)", "f(x=.)", "f(x=-)", "f(x=~)", "f(x=not)", "f(x=1 not in y)", "f(x=1 is not None)", "f(x=[i for i in range(3) if i])", "{1: 2 for x in y}", "f(x={1: 2, 3: 4,})", "f(x={'k': [1, {'n': 2}]}, y=(1,), z=())",
 "[m c]", "[ma c]", "[c d]", "[ty x]", "f(*a=)", "f(**a=)", "f(a=1, b=)", "[__ x]", "[mm.b c]", "[m.n.o(p=None)\nm.n.o(p=None)]", "[f(a=1)\ng(b=2)]", "f\n{bad", "f {bad", "f\ng(", "f\n\n[1",
]
out = []
for c in cases:
    try:
        eval(c)
        out.append({"src": c, "error": None})
    except SyntaxError as e:
        out.append({"src": c, "error": type(e).__name__ + ": " + str(e)})
    except Exception as e:
        out.append({"src": c, "error": None})
json.dump(out, open('syntax_cases.json', 'w'), indent=0, ensure_ascii=False)
print(len(out))
