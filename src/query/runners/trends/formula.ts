// Trends formulas ("A/B*100", "(A+B)**2"): letters are series in order, evaluated element-wise
// over their data. Parsed by a small grammar, never evaluated as code; dividing by zero gives 0.
import { ValidationError } from '../../../errors.js';

type Formula =
  | { kind: 'number'; value: number }
  | { kind: 'series'; index: number }
  | { kind: 'negate'; operand: Formula }
  | { kind: 'binary'; op: '+' | '-' | '*' | '/' | '%' | '**'; left: Formula; right: Formula };

const TOKEN = /\s*(?:(\d+(?:\.\d+)?|\.\d+)|([A-Za-z])|(\*\*|[-+*/%()]))/y;

export function parseFormula(text: string, seriesCount: number, attr: string): Formula {
  const tokens: string[] = [];
  TOKEN.lastIndex = 0;
  while (TOKEN.lastIndex < text.length) {
    const start = TOKEN.lastIndex;
    const match = TOKEN.exec(text);
    if (!match) {
      if (/^\s*$/.test(text.slice(start))) break;
      throw new ValidationError(`Formula "${text.slice(0, 100)}" has an unexpected character at position ${start + 1}.`, attr);
    }
    tokens.push(match[1] ?? match[2] ?? match[3]!);
  }
  let position = 0;
  const fail = (): never => {
    throw new ValidationError(`Formula "${text.slice(0, 100)}" is not valid: use series letters, numbers, + - * / % ** and parentheses.`, attr);
  };
  const peek = () => tokens[position];

  const expression = (): Formula => {
    let left = term();
    while (peek() === '+' || peek() === '-') left = { kind: 'binary', op: tokens[position++] as '+' | '-', left, right: term() };
    return left;
  };
  const term = (): Formula => {
    let left = power();
    while (peek() === '*' || peek() === '/' || peek() === '%') left = { kind: 'binary', op: tokens[position++] as '*' | '/' | '%', left, right: power() };
    return left;
  };
  const power = (): Formula => {
    const base = unary();
    if (peek() === '**') {
      position++;
      return { kind: 'binary', op: '**', left: base, right: power() };
    }
    return base;
  };
  const unary = (): Formula => {
    if (peek() === '-') { position++; return { kind: 'negate', operand: unary() }; }
    if (peek() === '+') { position++; return unary(); }
    return primary();
  };
  const primary = (): Formula => {
    const token = tokens[position++];
    if (token === undefined) return fail();
    if (token === '(') {
      const inner = expression();
      if (tokens[position++] !== ')') fail();
      return inner;
    }
    if (/^[A-Za-z]$/.test(token)) {
      const index = token.toUpperCase().charCodeAt(0) - 65;
      if (index >= seriesCount) throw new ValidationError(`Formula "${text.slice(0, 100)}" uses ${token.toUpperCase()}, but there are only ${seriesCount} series.`, attr);
      return { kind: 'series', index };
    }
    const value = Number(token);
    return Number.isFinite(value) ? { kind: 'number', value } : fail();
  };

  if (tokens.length === 0) fail();
  const formula = expression();
  if (position !== tokens.length) fail();
  return formula;
}

/** Evaluates a formula at every position of the series' data (all of equal length). */
export function evaluateFormula(formula: Formula, series: readonly (readonly number[])[], length: number): number[] {
  return Array.from({ length }, (_, i) => clean(at(formula, series, i)));
}

function at(f: Formula, series: readonly (readonly number[])[], i: number): number {
  switch (f.kind) {
    case 'number':
      return f.value;
    case 'series':
      return series[f.index]?.[i] ?? 0;
    case 'negate':
      return -at(f.operand, series, i);
    case 'binary': {
      const left = at(f.left, series, i);
      const right = at(f.right, series, i);
      switch (f.op) {
        case '+': return left + right;
        case '-': return left - right;
        case '*': return left * right;
        case '/': return right === 0 ? 0 : left / right;
        case '%': return right === 0 ? 0 : left % right;
        case '**': return left ** right;
      }
    }
  }
}

/** Infinite or NaN results (0 ** -1, overflow) show as 0, as division by zero does. */
function clean(value: number): number {
  return Number.isFinite(value) ? value : 0;
}
