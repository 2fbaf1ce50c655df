// SPDX-License-Identifier: MIT
pragma solidity 0.8.30;

import {OracleFed} from "./OracleFed.sol";

/**
 * The rail's ESG oracle on chain: each run of the off-chain ESG oracle (GET {esg_url}/esg-score)
 * publishes its environmental, social and governance scores and their average here, so anyone can
 * read them (and a contract can price the ESG fee from them) without trusting an HTTP answer.
 *
 * Scores are in millionths of a point (0 to 100,000,000), the unit of the settlement router's
 * esgScore argument. `asOf` is the answer's own asOf: the vintage of the indicators scored.
 */
contract RailEsgOracle is OracleFed {
    uint256 public constant SCORE_SCALE = 1e6;
    uint256 public constant MAX_SCORE = 100 * SCORE_SCALE;

    struct Scores {
        uint64 runId;
        uint64 publishedAt; // block timestamp
        uint32 environmental;
        uint32 social;
        uint32 governance;
        uint32 average;
        string asOf;
    }

    mapping(uint64 runId => Scores scores) private _scores;

    event ScoresPublished(uint64 indexed runId, uint32 environmental, uint32 social, uint32 governance, uint32 average, string asOf);

    error ScoreOutOfRange();
    error NoScores();

    constructor(address owner_, address oracle_) OracleFed(owner_, oracle_) {}

    function publishScores(uint64 runId, string calldata asOf, uint32 environmental, uint32 social, uint32 governance, uint32 average)
        external
        onlyOracle
    {
        if (environmental > MAX_SCORE || social > MAX_SCORE || governance > MAX_SCORE || average > MAX_SCORE) revert ScoreOutOfRange();
        _acceptRun(runId);
        _scores[runId] = Scores(runId, uint64(block.timestamp), environmental, social, governance, average, asOf);
        emit ScoresPublished(runId, environmental, social, governance, average, asOf);
    }

    /// The newest run's scores; reverts NoScores before the first run.
    function latest() external view returns (Scores memory) {
        if (latestRunId == 0) revert NoScores();
        return _scores[latestRunId];
    }

    /// A given run's scores (runId 0 when that run published none).
    function scoresOf(uint64 runId) external view returns (Scores memory) {
        return _scores[runId];
    }
}
