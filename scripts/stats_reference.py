#!/usr/bin/env python3
"""Reference values for the match statistics tests (src/runner/stats.rs).

Computed independently of the Rust code, with the standard library only and
by a different method: the Rust code maximises the multinomial likelihood
under "mean score = s" through its Lagrange (dual) form, a 1-D root find for
the multiplier; this script maximises it directly (primal) over the
distributions with mean s:

- trinomial (loss 0, draw 1/2, win 1): with the mean fixed the distributions
  are a 1-parameter family, p_D = d, p_W = s - d/2, p_L = 1 - s - d/2, and the
  concave log-likelihood is maximised over d by golden-section search;
- pentanomial (pair scores 0, 1/4, 1/2, 3/4, 1): the three middle masses are
  free, the two end masses follow from the two constraints, and the concave
  log-likelihood is maximised by damped Newton steps with the analytic
  gradient and Hessian.

From the constrained maximum l(s) it prints the GSPRT log-likelihood ratio
l(s1) - l(s0) for logistic Elo bounds, and the 95% likelihood-ratio interval
{s : 2 (l(s_hat) - l(s)) <= 3.841458820694124} found by bisection on s, with
the Elo of its ends. Run: python3 scripts/stats_reference.py
"""

import math

CHI2_95 = 3.841458820694124  # 1.959963984540054 ** 2


def xlogy(n, p):
    return 0.0 if n == 0 else n * math.log(p)


def score_from_elo(elo):
    return 1.0 / (1.0 + 10.0 ** (-elo / 400.0))


def elo_from_score(s):
    return -400.0 * math.log10(1.0 / s - 1.0)


def tri_profile(counts, s):
    """max log-likelihood of counts (losses, draws, wins) with mean s."""
    nl, nd, nw = counts

    def ll(d):
        return xlogy(nw, s - d / 2) + xlogy(nd, d) + xlogy(nl, 1 - s - d / 2)

    a, b = 0.0, 2 * min(s, 1 - s)
    g = (math.sqrt(5) - 1) / 2
    c, e = b - g * (b - a), a + g * (b - a)
    fc, fe = ll(c), ll(e)
    for _ in range(200):
        if fc < fe:
            a, c, fc = c, e, fe
            e = a + g * (b - a)
            fe = ll(e)
        else:
            b, e, fe = e, c, fc
            c = b - g * (b - a)
            fc = ll(c)
    return max(ll(c), ll(e))


def penta_profile(counts, s):
    """max log-likelihood of pair counts (0, 1/4, 1/2, 3/4, 1) with mean s;
    every count must be positive."""
    n0, n1, n2, n3, n4 = counts
    xs = (0.25, 0.5, 0.75)

    def ends(m):
        p4 = s - sum(x * p for x, p in zip(xs, m))
        return 1 - sum(m) - p4, p4

    def ll(m):
        p0, p4 = ends(m)
        if min(m) <= 0 or p0 <= 0 or p4 <= 0:
            return -math.inf
        return sum(xlogy(n, p) for n, p in zip((n0, n1, n2, n3, n4), (p0, *m, p4)))

    # Derivatives of p0 and p4 with respect to the middle masses.
    d4 = [-x for x in xs]
    d0 = [-1 + x for x in xs]
    m = [0.05, 0.05, 0.05]
    for _ in range(200):
        p0, p4 = ends(m)
        grad = [
            n / p + n0 / p0 * d0[i] + n4 / p4 * d4[i]
            for i, (n, p) in enumerate(zip((n1, n2, n3), m))
        ]
        hess = [
            [
                -(n0 / p0**2) * d0[i] * d0[j]
                - (n4 / p4**2) * d4[i] * d4[j]
                - ((n1, n2, n3)[i] / m[i] ** 2 if i == j else 0.0)
                for j in range(3)
            ]
            for i in range(3)
        ]
        step = solve3(hess, [-g for g in grad])
        t, base = 1.0, ll(m)
        while t > 1e-20:
            trial = [a + t * b for a, b in zip(m, step)]
            if ll(trial) >= base:
                m = trial
                break
            t /= 2
        if max(abs(g) for g in grad) < 1e-11:
            break
    return ll(m)


def solve3(a, b):
    """Gaussian elimination with partial pivoting, 3x3."""
    a = [row[:] + [v] for row, v in zip(a, b)]
    for c in range(3):
        p = max(range(c, 3), key=lambda r: abs(a[r][c]))
        a[c], a[p] = a[p], a[c]
        for r in range(c + 1, 3):
            f = a[r][c] / a[c][c]
            for k in range(c, 4):
                a[r][k] -= f * a[c][k]
    x = [0.0] * 3
    for r in (2, 1, 0):
        x[r] = (a[r][3] - sum(a[r][k] * x[k] for k in range(r + 1, 3))) / a[r][r]
    return x


def report(name, counts, xs, profile, elo0=0.0, elo1=50.0):
    n = sum(counts)
    s_hat = sum(c * x for c, x in zip(counts, xs)) / n
    top = sum(xlogy(c, c / n) for c in counts)
    llr = profile(counts, score_from_elo(elo1)) - profile(counts, score_from_elo(elo0))

    def bound(inside, outside):
        for _ in range(100):
            mid = (inside + outside) / 2
            if 2 * (top - profile(counts, mid)) <= CHI2_95:
                inside = mid
            else:
                outside = mid
        return (inside + outside) / 2

    lo, hi = bound(s_hat, 1e-9), bound(s_hat, 1 - 1e-9)
    print(f"{name} {counts}: mean {s_hat!r}")
    print(f"  LLR({elo0:g}, {elo1:g}) = {llr!r}")
    print(f"  score interval [{lo!r}, {hi!r}]")
    print(f"  Elo interval [{elo_from_score(lo)!r}, {elo_from_score(hi)!r}]")


if __name__ == "__main__":
    report("trinomial L D W", (20, 40, 30), (0, 0.5, 1), tri_profile)
    report("trinomial L D W", (2, 2, 6), (0, 0.5, 1), tri_profile)
    report("pentanomial", (3, 9, 21, 12, 5), (0, 0.25, 0.5, 0.75, 1), penta_profile)
    report("pentanomial", (3, 9, 21, 12, 5), (0, 0.25, 0.5, 0.75, 1), penta_profile, -10.0, 10.0)
