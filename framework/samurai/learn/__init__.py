"""Learning to judge positions, for any game that gives the features of a position (``GameFaces.features``).

``data`` plays seeded games between bots on the runs' executors and keeps sampled positions with how the games
ended; ``train`` fits a small value model to them (numpy, the ``train`` extra) and writes it as a model file;
``model`` reads that file and computes each seat's chance of winning in whole numbers only, so every machine and
both engines get the very same chances; ``calibration`` measures how well those chances match results. The
package names no game (docs/learning.md).
"""
