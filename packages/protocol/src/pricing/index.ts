export { addUsage } from './add-usage.js';
export {
  costOfUsage,
  findModelPrice,
  type PriceOverrides,
  priceUsage,
  roundUsd,
  totalCostUsd,
} from './model-cost.js';
export { formatUsd } from './format-usd.js';
export type { ModelUsage } from './model-usage.js';
export { type ModelPrice, PRICE_TABLE, PRICE_TABLE_SOURCE, PRICE_TABLE_TAKEN_ON } from './price-table.js';
