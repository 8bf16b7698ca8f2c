# Generates sim/testdata/simA_pow_cases.txt: "base<TAB>exponent<TAB>str of
# {'result': base ** exponent} or the exception text" for MathAPI.power,
# printed by CPython (float ** uses the C library's pow()).
# Usage: python3 gen_simA_pow_cases.py > simA_pow_cases.txt
import random
random.seed(11)
cases = [(2, 10), (2, -2), (2.0, 0.5), (10.0, 400), (0, -1), (0.0, 3), (-0.0, 3), (-2.0, 3), (-2.0, 2.0), (-1, 10**20 + 1),
         (1.5, 1e308), (0.5, -1e308), (-8, 1/3), (-2.5, 1.5), (1e-300, 2), (10, -320), (2, -1074), (True, -1), (3, 0.0), (7, -3)]
for _ in range(400):
    kind = random.random()
    if kind < 0.5:
        x, y = random.uniform(0.001, 1000), random.uniform(-30, 30)
    elif kind < 0.7:
        x, y = random.uniform(-50, -0.01), float(random.randint(-9, 9))
    elif kind < 0.85:
        x, y = random.randint(2, 99), random.uniform(-5, 5)
    else:
        x, y = random.uniform(0.1, 10), random.randint(-40, 40)
    cases.append((x, y))
for x, y in cases:
    try:
        r = repr({'result': x ** y})
    except Exception as e:
        r = "Error during execution: " + str(e)
    print("%r\t%r\t%s" % (x, y, r))
