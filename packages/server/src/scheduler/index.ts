export { MonitorScheduler, type MonitorSchedulerOptions, type ScheduledTask } from './monitor-scheduler.js';
