"""What every area shares: errors, ids, base models, time, the text gate."""
