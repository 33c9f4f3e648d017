// The cost chart as a standalone SVG (uPlot draws on a canvas and has no SVG output). The drawing is
// the core's, shared with the HTML report.
export { CHART_COLORS, chartSvg, escapeXml } from '../../core/report/chart';
export type { SvgOptions } from '../../core/report/chart';
