"""Rulings: judgements about a deal that need the double-dummy solver.

The Kodeks 3.3.16.3 assessment of a deal stopped by an exposed talon, the
proof of a claim (every unseen layout must give the claimant his tricks), and
the post-game analysis (разбор) of every card.
"""
