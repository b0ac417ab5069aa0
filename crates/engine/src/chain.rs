//! Exact expected steps to absorption in a Markov chain.
//!
//! The chain is given as states `0..n`, each either absorbing or moving to
//! other states with integer weights out of one common denominator (for a
//! die, six). The expected number of steps `E[s]` to absorption satisfies
//! `d·E[s] = d + Σ w·E[t]` over the moves `s → t` of weight `w`, with
//! `E = 0` at absorbing states. Every number is an exact rational.
//!
//! # Method
//!
//! States are visited from the highest down. A move to a higher state that
//! is already expressed substitutes its expression; a move to a lower state
//! (or to one that was reached that way before) refers to an unknown. Each
//! state's expectation is thus an affine expression in the few states that
//! are reached *backwards* (in Snakes and Ladders, the squares snakes lead
//! to), and those states' own expressions give a small dense system.
//!
//! Exact rationals in that elimination grow to hundreds of digits, and
//! reducing them after every step is slow. So the elimination runs modulo
//! one 62-bit prime after another, in machine words; the residues are
//! combined by the Chinese remainder theorem, and once the fraction they
//! determine stops changing it is recovered by rational reconstruction and
//! then *checked*: every state's equation must hold exactly, in big
//! rationals. The system has one solution, so an answer that passes is the
//! answer, whatever the primes; one that fails only means more primes.
//!
//! States from which absorption is not certain (some reachable state can
//! never be absorbed) have an infinite expectation and are reported so.

use num_bigint::BigInt;
use num_integer::Integer;
use num_rational::BigRational;
use num_traits::{One, Signed, ToPrimitive, Zero};

/// A Markov chain with integer transition weights.
#[derive(Clone, Debug)]
pub struct Chain {
    denominator: u32,
    /// For each state, its moves, or `None` if it absorbs.
    moves: Vec<Option<Vec<(usize, u32)>>>,
}

/// Why a chain was refused.
#[derive(Clone, Debug, Eq, PartialEq, thiserror::Error)]
pub enum ChainError {
    /// A state's weights do not add up to the denominator.
    #[error("the moves of state {state} weigh {total}, not {denominator}")]
    Weights {
        /// The state.
        state: usize,
        /// Its total weight.
        total: u32,
        /// The common denominator.
        denominator: u32,
    },
    /// A move to a state that does not exist.
    #[error("state {state} moves to {target}, beyond the last state")]
    Target {
        /// The state.
        state: usize,
        /// Where it moves.
        target: usize,
    },
}

impl Chain {
    /// A chain whose transient states move with weights out of
    /// `denominator`; `moves[s]` is `None` for an absorbing state.
    ///
    /// # Errors
    ///
    /// [`ChainError`] if a state's weights do not add up to the
    /// denominator or a move leads outside the chain.
    pub fn new(denominator: u32, moves: Vec<Option<Vec<(usize, u32)>>>) -> Result<Chain, ChainError> {
        for (state, list) in moves.iter().enumerate() {
            let Some(list) = list else { continue };
            if let Some(&(target, _)) = list.iter().find(|(t, _)| *t >= moves.len()) {
                return Err(ChainError::Target { state, target });
            }
            let total = list.iter().map(|m| m.1).sum();
            if total != denominator {
                return Err(ChainError::Weights { state, total, denominator });
            }
        }
        Ok(Chain { denominator, moves })
    }

    /// The number of states.
    pub fn len(&self) -> usize {
        self.moves.len()
    }

    /// Whether the chain has no states.
    pub fn is_empty(&self) -> bool {
        self.moves.is_empty()
    }

    /// The states from which absorption is certain.
    pub fn certain(&self) -> Vec<bool> {
        let n = self.len();
        let mut predecessors = vec![Vec::new(); n];
        for (s, list) in self.moves.iter().enumerate() {
            for &(t, w) in list.iter().flatten() {
                if w > 0 {
                    predecessors[t].push(s);
                }
            }
        }
        // States that can be absorbed at all...
        let mut can = vec![false; n];
        let mut stack: Vec<usize> = (0..n).filter(|&s| self.moves[s].is_none()).collect();
        for &s in &stack {
            can[s] = true;
        }
        while let Some(t) = stack.pop() {
            for &s in &predecessors[t] {
                if !can[s] {
                    can[s] = true;
                    stack.push(s);
                }
            }
        }
        // ...and, of those, the ones that cannot wander into a state that can't.
        let mut doomed = can.iter().map(|c| !c).collect::<Vec<bool>>();
        let mut stack: Vec<usize> = (0..n).filter(|&s| doomed[s]).collect();
        while let Some(t) = stack.pop() {
            for &s in &predecessors[t] {
                if !doomed[s] {
                    doomed[s] = true;
                    stack.push(s);
                }
            }
        }
        doomed.into_iter().map(|d| !d).collect()
    }

    /// The exact expected number of steps to absorption from every state,
    /// `None` where it is infinite.
    pub fn expected_steps(&self) -> Vec<Option<BigRational>> {
        let certain = self.certain();
        let plan = Plan::new(self, &certain);
        let mut residues: Vec<BigInt> = vec![BigInt::zero(); self.len()];
        let mut modulus = BigInt::one();
        let mut previous: Option<BigRational> = None;
        let probe = plan.order.last().copied();
        for prime in primes() {
            let Some(values) = plan.solve_mod(prime) else { continue };
            combine(&mut residues, &mut modulus, &values, prime);
            let Some(probe) = probe else { break };
            // Reconstruct one state each round; only when it repeats is the
            // whole answer reconstructed and checked.
            let guess = reconstruct(&residues[probe], &modulus);
            if guess.is_some() && guess == previous {
                let candidate: Option<Vec<BigRational>> =
                    plan.order.iter().map(|&s| reconstruct(&residues[s], &modulus)).collect();
                if let Some(candidate) = candidate {
                    let mut values = vec![BigRational::zero(); self.len()];
                    for (&s, value) in plan.order.iter().zip(candidate) {
                        values[s] = value;
                    }
                    if self.satisfies(&certain, &values) {
                        return self.finish(&certain, values);
                    }
                }
            }
            previous = guess;
        }
        // No transient certain state: nothing to solve.
        self.finish(&certain, vec![BigRational::zero(); self.len()])
    }

    /// Whether `values` satisfy every certain transient state's equation.
    fn satisfies(&self, certain: &[bool], values: &[BigRational]) -> bool {
        let d = BigRational::from_integer(BigInt::from(self.denominator));
        (0..self.len()).filter(|&s| certain[s]).all(|s| match &self.moves[s] {
            None => true,
            Some(list) => {
                let sum = list.iter().fold(d.clone(), |sum, &(t, w)| match self.moves[t] {
                    None => sum,
                    Some(_) => sum + &values[t] * BigRational::from_integer(BigInt::from(w)),
                });
                &d * &values[s] == sum
            }
        })
    }

    fn finish(&self, certain: &[bool], values: Vec<BigRational>) -> Vec<Option<BigRational>> {
        values
            .into_iter()
            .enumerate()
            .map(|(s, v)| match (&self.moves[s], certain[s]) {
                (None, _) => Some(BigRational::zero()),
                (Some(_), false) => None,
                (Some(_), true) => Some(v),
            })
            .collect()
    }
}

/// A reference from one state's equation to another state's value.
#[derive(Copy, Clone, Debug)]
enum Reference {
    /// A state already expressed (higher, and not an unknown).
    Known(usize),
    /// An unknown.
    Unknown(usize),
}

/// The elimination worked out once, to be run modulo each prime.
struct Plan {
    denominator: u64,
    /// Certain transient states, highest first.
    order: Vec<usize>,
    /// For each state of `order`: its references with their weights, and
    /// the weight of its moves to itself.
    terms: Vec<(Vec<(Reference, u64)>, u64)>,
    /// The state of each unknown.
    unknowns: Vec<usize>,
    /// For each state, its place in `order`.
    place: Vec<Option<usize>>,
}

impl Plan {
    fn new(chain: &Chain, certain: &[bool]) -> Plan {
        let n = chain.len();
        let mut unknown: Vec<Option<usize>> = vec![None; n];
        let mut unknowns = Vec::new();
        let mut expressed = vec![false; n];
        let mut order = Vec::new();
        let mut terms = Vec::new();
        let mut place = vec![None; n];
        for s in (0..n).rev() {
            let Some(list) = chain.moves[s].as_ref().filter(|_| certain[s]) else { continue };
            let mut refs = Vec::new();
            let mut stay = 0;
            for &(t, w) in list {
                if w == 0 || chain.moves[t].is_none() {
                    continue;
                }
                if t == s {
                    stay += u64::from(w);
                    continue;
                }
                let reference = match (expressed[t], unknown[t]) {
                    (true, None) => Reference::Known(t),
                    (_, Some(u)) => Reference::Unknown(u),
                    (false, None) => {
                        unknown[t] = Some(unknowns.len());
                        unknowns.push(t);
                        Reference::Unknown(unknowns.len() - 1)
                    }
                };
                refs.push((reference, u64::from(w)));
            }
            place[s] = Some(order.len());
            order.push(s);
            terms.push((refs, stay));
            expressed[s] = true;
        }
        Plan { denominator: u64::from(chain.denominator), order, terms, unknowns, place }
    }

    /// Every state's value modulo `prime`, or `None` if the system is
    /// singular modulo this prime.
    fn solve_mod(&self, prime: u64) -> Option<Vec<(usize, u64)>> {
        let k = self.unknowns.len();
        let field = Field(prime);
        // Each expression: constant then one coefficient per unknown.
        let mut expressions: Vec<Vec<u64>> = Vec::with_capacity(self.order.len());
        for (refs, stay) in &self.terms {
            let mut e = vec![0u64; k + 1];
            e[0] = self.denominator % prime;
            for &(reference, w) in refs {
                match reference {
                    Reference::Known(t) => {
                        let known = &expressions[self.place[t].expect("known states are in order")];
                        for (x, y) in e.iter_mut().zip(known) {
                            *x = field.add(*x, field.mul(*y, w));
                        }
                    }
                    Reference::Unknown(u) => e[u + 1] = field.add(e[u + 1], w % prime),
                }
            }
            let inverse = field.inverse((self.denominator - stay) % prime)?;
            for x in &mut e {
                *x = field.mul(*x, inverse);
            }
            expressions.push(e);
        }
        // x_u − Σ c·x_v = constant, for each unknown.
        let mut rows: Vec<Vec<u64>> = self
            .unknowns
            .iter()
            .enumerate()
            .map(|(u, &s)| {
                let e = &expressions[self.place[s].expect("unknowns are certain states")];
                let mut row: Vec<u64> = e[1..].iter().map(|&c| field.neg(c)).collect();
                row[u] = field.add(row[u], 1);
                row.push(e[0]);
                row
            })
            .collect();
        for col in 0..k {
            let pivot = (col..k).find(|&r| rows[r][col] != 0)?;
            rows.swap(col, pivot);
            let inverse = field.inverse(rows[col][col])?;
            for x in rows[col].iter_mut().skip(col) {
                *x = field.mul(*x, inverse);
            }
            let pivot_row = rows[col].clone();
            for (r, row) in rows.iter_mut().enumerate() {
                let factor = row[col];
                if r != col && factor != 0 {
                    for (x, &p) in row.iter_mut().zip(&pivot_row).skip(col) {
                        *x = field.sub(*x, field.mul(factor, p));
                    }
                }
            }
        }
        let solution: Vec<u64> = rows.iter().map(|row| row[k]).collect();
        Some(
            self.order
                .iter()
                .zip(&expressions)
                .map(|(&s, e)| {
                    let value =
                        e[1..].iter().zip(&solution).fold(e[0], |acc, (&c, &x)| field.add(acc, field.mul(c, x)));
                    (s, value)
                })
                .collect(),
        )
    }
}

/// Arithmetic modulo a prime below 2^63.
#[derive(Copy, Clone)]
struct Field(u64);

impl Field {
    fn add(self, a: u64, b: u64) -> u64 {
        let s = a + b;
        if s >= self.0 { s - self.0 } else { s }
    }

    fn sub(self, a: u64, b: u64) -> u64 {
        if a >= b { a - b } else { a + self.0 - b }
    }

    fn neg(self, a: u64) -> u64 {
        if a == 0 { 0 } else { self.0 - a }
    }

    fn mul(self, a: u64, b: u64) -> u64 {
        ((u128::from(a) * u128::from(b)) % u128::from(self.0)) as u64
    }

    fn pow(self, mut base: u64, mut exponent: u64) -> u64 {
        let mut result = 1;
        while exponent > 0 {
            if exponent & 1 == 1 {
                result = self.mul(result, base);
            }
            base = self.mul(base, base);
            exponent >>= 1;
        }
        result
    }

    fn inverse(self, a: u64) -> Option<u64> {
        (a != 0).then(|| self.pow(a, self.0 - 2))
    }
}

/// Primes just below 2^62, from the top down.
fn primes() -> impl Iterator<Item = u64> {
    ((1u64 << 61)..(1u64 << 62)).rev().step_by(2).filter(|&n| is_prime(n))
}

/// Deterministic Miller–Rabin for 64-bit numbers.
fn is_prime(n: u64) -> bool {
    const BASES: [u64; 12] = [2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37];
    if n < 2 {
        return false;
    }
    if let Some(&p) = BASES.iter().find(|&&p| n.is_multiple_of(p)) {
        return n == p;
    }
    let field = Field(n);
    let (mut d, mut r) = (n - 1, 0);
    while d.is_multiple_of(2) {
        d /= 2;
        r += 1;
    }
    BASES.iter().all(|&a| {
        let mut x = field.pow(a, d);
        if x == 1 || x == n - 1 {
            return true;
        }
        for _ in 1..r {
            x = field.mul(x, x);
            if x == n - 1 {
                return true;
            }
        }
        false
    })
}

/// Adds the residues `values` modulo `prime` to `residues` modulo `modulus`.
fn combine(residues: &mut [BigInt], modulus: &mut BigInt, values: &[(usize, u64)], prime: u64) {
    let field = Field(prime);
    let big_prime = BigInt::from(prime);
    let m_mod = (&*modulus % &big_prime).to_u64().expect("a residue fits");
    let m_inverse = field.inverse(m_mod).expect("distinct primes are coprime");
    for &(s, value) in values {
        let current = (&residues[s] % &big_prime).to_u64().expect("a residue fits");
        let step = field.mul(field.sub(value, current), m_inverse);
        residues[s] += &*modulus * BigInt::from(step);
    }
    *modulus *= big_prime;
}

/// The fraction `n/d` with `|n|, d < sqrt(m/2)` and `n ≡ d·residue (mod m)`,
/// if there is one (Wang's rational reconstruction).
fn reconstruct(residue: &BigInt, modulus: &BigInt) -> Option<BigRational> {
    let bound = (modulus / BigInt::from(2)).sqrt();
    let (mut r0, mut r1) = (modulus.clone(), residue.clone());
    let (mut t0, mut t1) = (BigInt::zero(), BigInt::one());
    while r1 > bound {
        let q = &r0 / &r1;
        let r2 = &r0 - &q * &r1;
        let t2 = &t0 - &q * &t1;
        (r0, r1, t0, t1) = (r1, r2, t1, t2);
    }
    if t1.is_zero() || t1.abs() > bound || !r1.gcd(&t1).is_one() {
        return None;
    }
    Some(BigRational::new(r1, t1))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ratio(n: i64, d: i64) -> BigRational {
        BigRational::new(BigInt::from(n), BigInt::from(d))
    }

    #[test]
    fn a_fair_coin_until_heads_takes_two_flips() {
        let chain = Chain::new(2, vec![Some(vec![(0, 1), (1, 1)]), None]).unwrap();
        assert_eq!(chain.expected_steps(), [Some(ratio(2, 1)), Some(ratio(0, 1))]);
    }

    #[test]
    fn backward_moves_become_unknowns() {
        // 0 → 1 always; 1 → 2 or back to 0, evenly; 2 absorbs.
        // E1 = 1 + E0/2, E0 = 1 + E1, so E0 = 4 and E1 = 3.
        let chain = Chain::new(2, vec![Some(vec![(1, 2)]), Some(vec![(2, 1), (0, 1)]), None]).unwrap();
        assert_eq!(chain.expected_steps(), [Some(ratio(4, 1)), Some(ratio(3, 1)), Some(ratio(0, 1))]);
    }

    #[test]
    fn a_trap_makes_the_expectation_infinite() {
        // 0 → 1 or 2; 1 absorbs; 2 loops forever.
        let chain = Chain::new(2, vec![Some(vec![(1, 1), (2, 1)]), None, Some(vec![(2, 2)])]).unwrap();
        assert_eq!(chain.expected_steps(), [None, Some(ratio(0, 1)), None]);
    }

    #[test]
    fn bad_weights_are_refused() {
        assert!(matches!(Chain::new(6, vec![Some(vec![(0, 5)])]), Err(ChainError::Weights { total: 5, .. })));
        assert!(matches!(Chain::new(1, vec![Some(vec![(3, 1)])]), Err(ChainError::Target { target: 3, .. })));
    }
}
