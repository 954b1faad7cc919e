/**
 * cli-table3 options for a borderless table: columns two spaces apart, no
 * colours, so the text reads the same on a terminal and in a pipe.
 */
export const PLAIN_TABLE = {
  chars: {
    top: '',
    'top-mid': '',
    'top-left': '',
    'top-right': '',
    bottom: '',
    'bottom-mid': '',
    'bottom-left': '',
    'bottom-right': '',
    left: '',
    'left-mid': '',
    mid: '',
    'mid-mid': '',
    right: '',
    'right-mid': '',
    middle: '  ',
  },
  style: { 'padding-left': 0, 'padding-right': 0, head: [], border: [] },
};
