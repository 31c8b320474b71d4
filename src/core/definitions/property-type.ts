// A property's type from the kinds of value seen: the rule lives beside the query engine, which
// types HogQL's property reads by it (query/catalog/property-type.ts).
export { DATETIME_PATTERN, propertyTypeOf, type PropertyType } from '../../query/catalog/property-type.js';
