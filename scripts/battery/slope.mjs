// Least-squares slope of y over x: how fast a soak's memory figures move once warmed up.

/** @param {number[]} xs @param {number[]} ys @returns {number} 0 when every x is the same */
export function leastSquaresSlope(xs, ys) {
  const mx = xs.reduce((a, b) => a + b, 0) / xs.length;
  const my = ys.reduce((a, b) => a + b, 0) / ys.length;
  let num = 0;
  let den = 0;
  for (let i = 0; i < xs.length; i++) {
    num += (xs[i] - mx) * (ys[i] - my);
    den += (xs[i] - mx) ** 2;
  }
  return den ? num / den : 0;
}
