// `npm run op -- arcade ...`: the Arcade settings an operator changes (DECISIONS: Staff and moderation).
import { readFile } from 'node:fs/promises';
import type { Knex } from 'knex';
import type { Config } from '../shared/platform/config.js';
import {
  allowPublisher,
  blockNetwork,
  blockRegistrar,
  publishTerms,
  setAppLimit,
  setOpenPublishing,
} from '../shared/arcade/settings.js';

export interface OpCommand {
  summary: string;
  args?: string;
  run(knex: Knex, config: Config, args: string[]): Promise<void>;
}

function one(args: string[], usage: string): string {
  if (args.length !== 1 || !args[0]) throw new Error(`usage: npm run op -- ${usage}`);
  return args[0];
}

export const ARCADE_COMMANDS: Record<string, OpCommand> = {
  'arcade open-publishing': {
    summary: 'let uninvited accounts publish (on) or keep Arcade invitation-only (off)',
    args: 'on|off',
    async run(knex, _config, args) {
      const value = one(args, 'arcade open-publishing on|off');
      if (value !== 'on' && value !== 'off') throw new Error('say on or off');
      await setOpenPublishing(knex, value === 'on');
      console.log(`open publishing is ${value}`);
    },
  },
  'arcade allow': {
    summary: 'invite an account to publish (skips the age rule and the app limit)',
    args: 'USERNAME',
    async run(knex, _config, args) {
      await allowPublisher(knex, one(args, 'arcade allow USERNAME'), true);
      console.log(`${args[0]} may publish`);
    },
  },
  'arcade disallow': {
    summary: 'withdraw an invitation to publish',
    args: 'USERNAME',
    async run(knex, _config, args) {
      await allowPublisher(knex, one(args, 'arcade disallow USERNAME'), false);
      console.log(`${args[0]} is no longer invited`);
    },
  },
  'arcade terms': {
    summary: 'publish developer terms from a text file and make them current',
    args: 'VERSION FILE',
    async run(knex, _config, args) {
      if (args.length !== 2) throw new Error('usage: npm run op -- arcade terms VERSION FILE');
      await publishTerms(knex, args[0], await readFile(args[1], 'utf8'));
      console.log(`terms ${args[0]} are current`);
    },
  },
  'arcade app-limit': {
    summary: 'how many games an uninvited account may hold',
    args: 'N',
    async run(knex, _config, args) {
      const value = one(args, 'arcade app-limit N');
      if (!/^\d+$/.test(value)) throw new Error('the limit is a whole number');
      await setAppLimit(knex, Number(value));
      console.log(`app limit is ${value}`);
    },
  },
  'arcade block-network': {
    summary: 'refuse games hosted in a network (CIDR)',
    args: 'CIDR',
    async run(knex, _config, args) {
      await blockNetwork(knex, one(args, 'arcade block-network CIDR'));
      console.log(`blocked network ${args[0]}`);
    },
  },
  'arcade block-registrar': {
    summary: 'refuse games on domains of a registrar',
    args: 'NAME',
    async run(knex, _config, args) {
      await blockRegistrar(knex, args.join(' '));
      console.log(`blocked registrar ${args.join(' ')}`);
    },
  },
};
