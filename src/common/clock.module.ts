import { Global, Module } from '@nestjs/common';
import { Clock } from './clock';

/** One Clock for the whole process, injectable everywhere. */
@Global()
@Module({ providers: [Clock], exports: [Clock] })
export class ClockModule {}
