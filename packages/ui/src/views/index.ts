export { ProjectPicker, recentProjects, rememberProject } from './projects/project-picker.js';
export { SECTION_GROUPS, SECTIONS, type Section, type SectionGroup, sectionOf } from './sections.js';
