import type { ArticleSource } from '../article-types';

export const article: ArticleSource = {
  id: 8,
  slug: 'ai-weather-prediction-on-rented-gpus',
  title: 'How AI Weather Prediction Went From Research Curiosity to the Forecast Desk',
  excerpt:
    "GraphCast, Pangu-Weather and ECMWF's AIFS changed forecasting in a few years. Here is how small climate-tech teams now build forecasts on rented GPUs.",
  author: 'Arjun Bhatt',
  date: 'August 6, 2026',
  category: 'Climate Tech',
  tags: ['Weather Prediction', 'Climate', 'AI Models', 'Forecasting'],
  featured: false,
  content: `
For more than half a century, weather forecasts have come from numerical weather prediction: supercomputers solving the equations of fluid dynamics and thermodynamics on a grid covering the planet. It is one of the great achievements of applied science, and it is expensive. Then, within a couple of years, machine-learning models trained on decades of past weather began to match, and on many measures beat, the best traditional forecasts, while running in minutes on a single accelerator. This is the story of that shift, and of what it means for the small teams in climate tech who now build forecasting products on rented GPUs.

## How forecasts have been made

Traditional forecasting starts from the present. Observations from satellites, weather balloons, aircraft, ships and ground stations are combined into a best estimate of the current state of the atmosphere, a step called data assimilation. Physical models then step that state forward in time, a few minutes per step, across millions of grid points and dozens of vertical levels. Centres such as the European Centre for Medium-Range Weather Forecasts (ECMWF) and national services such as the India Meteorological Department run these models several times a day on some of the largest computers in their countries.

The results are remarkable: a five-day forecast today is about as accurate as a one-day forecast was a few decades ago. But every improvement in resolution multiplies the computing cost, and running large ensembles to estimate uncertainty multiplies it again.

## The machine-learning turn

Machine-learning weather models take a different approach. Instead of solving the equations, they learn how the atmosphere evolves from historical data. The key ingredient is reanalysis: a consistent reconstruction of the global atmosphere over decades, produced by running a modern forecasting system over past observations. The most widely used, ERA5 from ECMWF, provides hourly global data from 1940 onwards at a resolution of about 0.25 degrees.

Between 2022 and 2023, several groups showed what models trained on reanalysis could do:

- **FourCastNet** from NVIDIA and collaborators used neural operators to produce global forecasts at high speed.
- **Pangu-Weather** from Huawei used 3D transformer models and reported forecast skill comparable to, and on many variables better than, the leading operational system for medium-range forecasts.
- **GraphCast** from Google DeepMind used graph neural networks and, in a study published in Science, outperformed the operational high-resolution forecast on most of the verification targets it tested, producing a ten-day forecast in under a minute.

Operational centres took notice. ECMWF developed its own machine-learning model, the AIFS, and began running it operationally alongside its physics-based system. Today the question is no longer whether machine learning has a place in forecasting, but how to combine it with physics, observations and human forecasters.

## Why this matters for small teams

Training a global model from scratch is still a large undertaking: the published models were trained on dozens of accelerators for days to weeks. But the shift has changed what a small team can build.

**Inference is cheap.** Once a model is trained, producing a forecast takes minutes on a single data-centre GPU instead of hours on a supercomputer. Several research models have published weights under open or research licences, so a startup can run global forecasts itself.

**Fine-tuning is within reach.** A team can adapt a pre-trained model to a region, a variable or a lead time that matters to its customers, using far less compute than the original training.

**Downscaling is a natural fit.** Global models work at roughly 25-kilometre resolution. Many applications, from solar and wind power to agriculture and flood warnings, need much finer detail. Machine-learning downscaling models, trained to map coarse forecasts to high-resolution local conditions, are modest in size and well suited to single GPUs.

## A climate-tech workflow on rented GPUs

Consider a small team forecasting rainfall for farmers in the monsoon regions of India. Their product needs district-level rainfall probabilities for the next ten days, updated every day. A workflow built on rented GPUs might look like this:

1. **Data preparation.** Download the needed variables from ERA5 and regional rain-gauge data, regrid them and store them in a chunked format such as Zarr. This is mostly CPU and storage work and happens once.
2. **Model development.** On a rented RTX 4090, develop and test a downscaling model that turns global forecast fields into district-level rainfall. Short rentals, stopped as soon as each experiment is done, keep costs low while ideas change daily.
3. **Training runs.** When the design is settled, rent an A100 80GB or H100 for the full training run, which might take a day or two. Checkpoints every 30 minutes make the run safe to resume.
4. **Daily operations.** Each morning, a script rents a GPU, runs the global model and the downscaling model on the latest initial conditions, publishes the forecast and stops the rental. With the public API or the \`rentgpu\` command-line tool, this is a scheduled job of a few dozen lines.
5. **Ensembles for the monsoon peak.** During the most critical weeks, the team runs larger ensembles by renting several GPUs in parallel for a few hours a day.

On RentGPU each rental is booked in hours, between 1 and 720, with its cost held in escrow and unused time refunded by the second when the rental is stopped, so a daily job that takes 40 minutes pays for 40 minutes plus the $2.50 storage add-on.

## What machine learning does not solve

Machine-learning weather models are powerful but not magic. They learn from the past, so they can struggle with events outside their training data, and a warming climate produces exactly such events. Many still depend on initial conditions produced by traditional data assimilation. Their forecasts can be too smooth at long lead times, underestimating extremes. And verification, comparing forecasts against what actually happened, remains essential for any product that people rely on for decisions about crops, power grids or safety.

The most useful products combine both worlds: physics-based forecasts and observations as inputs, machine learning for speed and local detail, and careful verification and communication of uncertainty.

## Energy and the climate footprint of computing

Climate-tech teams are rightly asked about the footprint of their own computing. Running inference in minutes on one GPU instead of hours on a supercomputer is a large saving in itself. Renting adds another: capacity that already exists is used instead of new hardware being built for occasional peaks. When you choose GPUs, prefer efficient modern hardware for long jobs, keep utilisation high, and stop rentals as soon as work is done.

## Forecast the future with us

Compare A100, H100 and RTX GPUs by price and location on the [marketplace](/marketplace) and start your next forecasting experiment in minutes. If your organisation operates GPU servers that are idle between model runs, [become a provider](/provider-signup) and let other teams put that capacity to work.
`,
};
