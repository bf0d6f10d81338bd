import { readTime } from '../../../../shared/content/markup';
import type { Article, ArticleSource } from '../article-types';
import { article as a1 } from './01-cut-gpu-costs';
import { article as a2 } from './02-earning-from-your-gpus';
import { article as a3 } from './03-research-labs';
import { article as a4 } from './04-startup-scaling';
import { article as a5 } from './05-game-development';
import { article as a6 } from './06-medical-imaging';
import { article as a7 } from './07-enterprise-capacity';
import { article as a8 } from './08-weather-prediction-ai';
import { article as a9 } from './09-security-data-protection';
import { article as a10 } from './10-future-of-distributed-computing';

const withReadTime = (source: ArticleSource): Article => ({
  ...source,
  readTime: readTime(source.content),
});

/** The ten articles in their categories' order (blog.test.ts); the first is the featured one. */
export const ARTICLES: readonly Article[] = [a1, a2, a3, a4, a5, a6, a7, a8, a9, a10].map(
  withReadTime,
);
