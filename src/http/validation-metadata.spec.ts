import 'reflect-metadata';
import { Type } from 'class-transformer';
import { IsInt, IsString, Max, ValidateNested, validateSync } from 'class-validator';
import { plainToInstance } from 'class-transformer';
import { keepValidationMetadata } from './validation-metadata';

class Base {
  @IsString()
  name!: string;
}

class Line extends Base {
  @IsInt()
  @Max(10)
  quantity!: number;
}

class Body {
  @ValidateNested({ each: true })
  @Type(() => Line)
  lines!: Line[];
}

function problems(plain: unknown): string[] {
  const errors = validateSync(plainToInstance(Body, plain) as object, { whitelist: true });
  const out: string[] = [];
  const walk = (list: typeof errors, path: string) => {
    for (const error of list) {
      const at = path ? `${path}.${error.property}` : error.property;
      for (const name of Object.keys(error.constraints ?? {})) out.push(`${at}:${name}`);
      walk(error.children ?? [], at);
    }
  };
  walk(errors, '');
  return out.sort();
}

describe('kept validation metadata', () => {
  const bad = {
    lines: [
      { name: 1, quantity: 11 },
      { name: 'ok', quantity: 2, extra: true },
    ],
  };

  it('finds the same rules, inherited ones included, as class-validator alone', () => {
    const before = problems(bad);
    keepValidationMetadata();
    expect(problems(bad)).toEqual(before);
    expect(problems(bad)).toEqual(['lines.0.name:isString', 'lines.0.quantity:max']);
  });

  it('sees a rule declared after the answers were kept', () => {
    keepValidationMetadata();
    expect(problems({ lines: [{ name: 'a', quantity: 1 }] })).toEqual([]);
    class Later {
      @IsInt()
      count!: number;
    }
    const later = validateSync(plainToInstance(Later, { count: 'x' }) as object);
    expect(later.map((error) => error.property)).toEqual(['count']);
    // Declaring a rule on a class already validated changes its answer too.
    IsString()(Line.prototype, 'note');
    expect(problems({ lines: [{ name: 'a', quantity: 1, note: 3 }] })).toEqual([
      'lines.0.note:isString',
    ]);
  });
});
