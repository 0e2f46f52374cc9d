import { describe, expect, it } from 'vitest';
import { createResolver } from '../../../src/graph/resolve';
import { extract, keyOf } from './support';

// One small file per same-file language, extracted for real; the expected edges are read off the source.
const CASES: { name: string; path: string; source: string; expected: string[] }[] = [
  {
    name: 'php',
    path: 'src/Cart.php',
    source: `<?php
namespace App;

class Base {
    public function total() { return 0; }
}

class Cart extends Base {
    public function add($item) {
        $this->items[] = $item;
        return $this->total() + parent::total() + self::fee();
    }

    public static function fee() { return fee_for(1); }
}

function fee_for($n) { return strlen((string) $n); }
`,
    expected: [
      'INHERITS src/Cart.php::Cart#Class -> src/Cart.php::Base#Class @8',
      'CALLS src/Cart.php::Cart.add#Method -> src/Cart.php::Base.total#Method @11',
      'CALLS src/Cart.php::Cart.add#Method -> src/Cart.php::Cart.fee#Method @11',
      'CALLS src/Cart.php::Cart.fee#Method -> src/Cart.php::fee_for#Function @14',
    ],
  },
  {
    name: 'cpp',
    path: 'src/shape.cpp',
    source: `#include <cmath>
#include "shape.h"

struct Shape {
    virtual double area() const = 0;
    double twice() const { return 2 * area(); }
};

struct Square : Shape {
    double side;
    double area() const override { return side * side; }
};

static double scale(double v) { return std::sqrt(v); }

double describe(const Square& s) {
    return scale(s.area());
}
`,
    expected: [
      'CALLS src/shape.cpp::Shape.twice#Method -> src/shape.cpp::Shape.area#Method @6',
      'INHERITS src/shape.cpp::Square#Struct -> src/shape.cpp::Shape#Struct @9',
      'CALLS src/shape.cpp::describe#Function -> src/shape.cpp::scale#Function @17',
      'CALLS src/shape.cpp::describe#Function -> src/shape.cpp::Square.area#Method @17',
    ],
  },
  {
    name: 'csharp',
    path: 'src/Greeter.cs',
    source: `using System;

namespace App
{
    public interface IGreeter { string Greet(string name); }

    public class Greeter : IGreeter
    {
        public string Greet(string name) => Format(name);

        private static string Format(string name) => $"Hello {name}";

        public void Print() { Console.WriteLine(this.Greet("you")); }
    }
}
`,
    expected: [
      'IMPLEMENTS src/Greeter.cs::Greeter#Class -> src/Greeter.cs::IGreeter#Interface @7',
      'CALLS src/Greeter.cs::Greeter.Greet#Method -> src/Greeter.cs::Greeter.Format#Method @9',
      'CALLS src/Greeter.cs::Greeter.Print#Method -> src/Greeter.cs::Greeter.Greet#Method @13',
    ],
  },
  {
    name: 'bash',
    path: 'scripts/deploy.sh',
    source: `#!/usr/bin/env bash
source ./lib.sh

log() {
  echo "[deploy] $*"
}

deploy() {
  log "starting"
  rsync -a build/ "$TARGET"
}

deploy
`,
    expected: [
      'CALLS scripts/deploy.sh::deploy#Function -> scripts/deploy.sh::log#Function @9',
      'CALLS scripts/deploy.sh -> scripts/deploy.sh::deploy#Function @13',
    ],
  },
];

describe('same-file languages, extracted for real', () => {
  for (const c of CASES) {
    it(`resolves the ${c.name} calls and bases inside the file`, async () => {
      const fixture = { name: `same-file-${c.name}`, files: new Map([[c.path, c.source]]), expected: [] };
      const { refs, symbols, layout } = await extract(fixture);
      const resolver = createResolver(layout);
      expect(resolver.plan(refs)).toEqual({ files: new Set(), names: new Set() });
      const edges = resolver.resolve(refs, symbols);
      const got = new Set(edges.map(keyOf));
      for (const e of c.expected) expect(got, e).toContain(e);
      // Anything else is a name guess among several methods (`s.area()` with no type for `s`).
      const extra = edges.filter((e) => !c.expected.includes(keyOf(e)));
      expect(extra.map((e) => e.provenance).filter((p) => p !== 'ambiguous')).toEqual([]);
    }, 60_000);
  }
});
