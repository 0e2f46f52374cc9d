/** `real`, counting its round trips (sessions taken from it included): each run of a statement and each batch (with its statements' SQL). */
export function countingD1(real: D1Database): { d1: D1Database; trips: string[][] } {
  const trips: string[][] = [];
  const sqlOf = new WeakMap<object, string>();
  const wrap = (sql: string, statement: D1PreparedStatement): D1PreparedStatement => {
    const proxy = new Proxy(statement, {
      get(target, key) {
        if (key === 'bind') return (...args: unknown[]) => wrap(sql, target.bind(...args));
        if (key === 'all' || key === 'run' || key === 'first' || key === 'raw') {
          return (...args: unknown[]) => {
            trips.push([sql]);
            return (target[key] as (...a: unknown[]) => unknown).apply(target, args);
          };
        }
        const value = Reflect.get(target, key, target);
        return typeof value === 'function' ? value.bind(target) : value;
      },
    });
    sqlOf.set(proxy, sql);
    return proxy;
  };
  const counted = <T extends D1Database | D1DatabaseSession>(db: T): T =>
    new Proxy(db, {
      get(target, key) {
        if (key === 'prepare') return (sql: string) => wrap(sql, target.prepare(sql));
        if (key === 'batch') {
          return (statements: D1PreparedStatement[]) => {
            trips.push(statements.map((s) => sqlOf.get(s) ?? '?'));
            // The proxies stand for the real statements: unwrap them for the real batch.
            return target.batch(statements.map((s) => (s as unknown as { valueOf(): D1PreparedStatement }).valueOf()));
          };
        }
        if (key === 'withSession') return (constraint?: D1SessionConstraint) => counted((target as D1Database).withSession(constraint));
        if (key === 'exec') {
          return (sql: string) => {
            trips.push([sql]);
            return (target as D1Database).exec(sql);
          };
        }
        const value = Reflect.get(target, key, target);
        return typeof value === 'function' ? value.bind(target) : value;
      },
    });
  return { d1: counted(real), trips };
}
