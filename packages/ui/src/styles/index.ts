/** The UI's styles, one file per concern, in cascade order. */
import './base.css';
import './shell.css';
import './tables.css';
import './trace.css';
import './detail.css';
import './pages.css';
import './monitor.css';
