// The one feed layer: each publisher's adapter as fetch (the request), parse (its documented
// shape) and map (into the neutral types of types.ts), over one HTTP step with a timeout.
// Subgraphs (fees, forecast, intelligence) map the neutral types onto their own domains.

export { fetchBoeSeries, iadbDay, SONIA_SERIES_CODE } from './boe/fetch.js';
export { isoFromIadbDay, mapBoeDaily } from './boe/map.js';
export { type BoeObservation, parseBoeCsv } from './boe/parse.js';
export { addDays, addMonths, isoDay, usDay } from './calendar.js';
export { fetchDefillamaStablecoins } from './defillama/fetch.js';
export { mapStablecoinQuotes, type StablecoinQuote } from './defillama/map.js';
export { type DefillamaAsset, parseDefillamaStablecoins } from './defillama/parse.js';
export { ESTR_SERIES, fetchEcbSeries } from './ecb/fetch.js';
export { mapEcbDaily } from './ecb/map.js';
export { type EcbObservation, parseEcbCsv } from './ecb/parse.js';
export { fetchEonetWildfires } from './eonet/fetch.js';
export { mapActiveWildfires } from './eonet/map.js';
export { type EonetEvent, type EonetGeometry, parseEonetEvents } from './eonet/parse.js';
export { type FeedId, malformedBody, type SourceFailureKind, SourceUnavailableError } from './errors.js';
export { fetchFredObservations } from './fred/fetch.js';
export { mapFredObservations } from './fred/map.js';
export { type FredObservation, type FredObservations, parseFredObservations } from './fred/parse.js';
export { fetchGdacsAlerts, GDACS_LOOKBACK_DAYS } from './gdacs/fetch.js';
export { alertKind, mapRegionAlerts } from './gdacs/map.js';
export { type GdacsFeature, parseGdacsEvents } from './gdacs/parse.js';
export { bboxesIntersect, pointBbox, positionsBbox } from './geo.js';
export { fetchGistempGlobal } from './gistemp/fetch.js';
export { mapGistempMonthly } from './gistemp/map.js';
export { GISTEMP_MONTHS, type GistempYear, parseGistempTable } from './gistemp/parse.js';
export { buildUrl, describeEndpoint, getBytes, getJson, getText, parseJsonBody, publicUrl, type RawResponse } from './http.js';
export { fetchGmlCo2, type GmlCo2File } from './noaa-gml/fetch.js';
export { mapGmlAnnualMeans, mapGmlMonthlyMeans } from './noaa-gml/map.js';
export { parseGmlTable } from './noaa-gml/parse.js';
export { fetchGscpiWorkbook } from './nyfed/fetch.js';
export { gscpiMonth, mapGscpiMonthly } from './nyfed/map.js';
export { GSCPI_SHEET, type GscpiRow, parseGscpiWorkbook } from './nyfed/parse.js';
export { type DayWindow, fetchOpenMeteoDaily, MAX_POINTS_PER_REQUEST, NORMAL_PERIOD, RECENT_WINDOW_DAYS, recentWindow } from './open-meteo/fetch.js';
export { type ClimatologyCache, type DailyNormals, mapDailyNormals, mapPointAnomaly, mapTemperatureAnomaly, MIN_VALID_DAYS, pointKey } from './open-meteo/map.js';
export { type OpenMeteoLocation, parseOpenMeteoDaily } from './open-meteo/parse.js';
export { DEFAULT_FEED_BASE_URLS, type FeedBaseUrls, type FeedOptions, type FeedRequestOptions } from './options.js';
export { mapSeriesCsv, monthlyAverages } from './series-csv/map.js';
export { parseSeriesCsv, type SeriesCsvRow, SeriesFileError } from './series-csv/parse.js';
export type { AlertCounts, Bbox, DatedObservation, GeoPoint } from './types.js';
export { fetchUsdmStateAreas } from './usdm/fetch.js';
export { isoDate, mapDroughtIndex, type UsdmDrought } from './usdm/map.js';
export { CATEGORICAL_STATISTICS, parseUsdmRows, type UsdmRow } from './usdm/parse.js';
export { fetchPinkSheetMonthly } from './worldbank/fetch.js';
export { mapPinkSheetColumn } from './worldbank/map.js';
export { parsePinkSheetMonthly, PINK_SHEET_MONTHLY_PRICES, type PinkSheetColumn, type PinkSheetMonthly } from './worldbank/parse.js';
export { type CellValue, columnLetters, MAX_WORKBOOK_BYTES, readWorksheet, type SheetRow } from './xlsx.js';
