export { ColumnChooser } from './column-chooser.js';
